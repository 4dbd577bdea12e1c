# tp_ladder.gp - written by warplat; edit it, then redraw from this directory with
#   gnuplot -c tp_ladder.gp [OUTPUT [DATA...]]
out = ARGC >= 1 ? ARG1 : 'tp_ladder.svg'
dat = ARGC >= 2 ? ARG2 : 'tp_ladder.dat'
set terminal svg size 900,680 dynamic background rgb 'white' font 'Helvetica,12'
set termoption noenhanced
set output out
set title 'baseline: throughput vs occupancy, 128 B per warp in flight'."\n".'NVIDIA H100 80GB HBM3, 132 SMs, SM clock 1755 MHz (measured)'
peak_GBps = 3352.3200000000002
set xlabel 'warps per SM'
set ylabel 'bandwidth (GB/s)'
set yrange [0:peak_GBps * 1.1]
set xrange [0:65]
set grid
set key below center Left reverse font ',10' height 1
plot dat index 1 using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'Little''s law bound at 690.38 cycles: DRAM plateau of the latency ladder (up to the DRAM peak)', \
     dat index 2 using 1:3 with points pt 6 ps 1.5 lc rgb '#2ca02c' title 'bound at each point''s measured mean latency', \
     dat index 0 using 1:3:4:5 with yerrorbars pt 7 lc rgb '#d62728' title 'measured (median, min..max)', \
     dat index 0 using 1:3 with lines lc rgb '#d62728' notitle, \
     peak_GBps with lines dt 2 lw 2 lc rgb 'black' title 'DRAM peak 3352.32 GB/s'
