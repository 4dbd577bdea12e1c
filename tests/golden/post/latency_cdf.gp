# lat.gp - written by warplat; edit it, then redraw from this directory with
#   gnuplot -c lat.gp [OUTPUT [DATA...]]
out = ARGC >= 1 ? ARG1 : 'lat.svg'
dat = ARGC >= 2 ? ARG2 : 'lat.dat'
set terminal svg size 900,680 dynamic background rgb 'white' font 'Helvetica,12'
set termoption noenhanced
set output out
set title 'Per-warp load latency, cumulative distribution'."\n".'NVIDIA H100 80GB HBM3'
set xlabel 'latency (SM cycles, end_clk - start_clk)'
set ylabel 'fraction of warps with latency <= x'
set yrange [0:1]
set ytics 0.1
set grid
set key below center Left reverse font ',10' height 1
plot dat index 0 using 1:2 with steps lw 2 title 'baseline, 2 warps/block (known.bin): 10 warps, p50 550.0 cycles', \
     dat index 1 using 1:2 with steps lw 2 title 'float4, 2 warps/block (float4.bin): 6 warps, p50 1150.0 cycles'
