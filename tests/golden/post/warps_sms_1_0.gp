# w2.gp - written by warplat; edit it, then redraw from this directory with
#   gnuplot -c w2.gp [OUTPUT [DATA...]]
out = ARGC >= 1 ? ARG1 : 'w2.png'
dat = ARGC >= 2 ? ARG2 : 'w2.dat'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1000,700 background rgb 'white' font 'Helvetica,12'
} else {
    set terminal png size 1000,700 background rgb 'white'
}
set termoption noenhanced
set output out
set title 'baseline: N = 320, 2 warps per block, 6 warps on SMs 1,0'."\n".'NVIDIA H100 80GB HBM3, SM clock 2000 MHz (measured)'
set xlabel 'cycles since the first warp on the same SM started'
set ylabel 'warp (ordered by SM, then start time)'
set key outside right top
set xrange [0:*]
set yrange [-1:6]
set grid xtics
# x_start y length rgb, float64 each: one warp per record
plot dat binary format='%float64%float64%float64%float64' \
     using 1:2:3:(0):4 with vectors nohead lw 1 lc rgb variable notitle, \
     keyentry with lines lw 3 lc rgb '#1f77b4' title 'SM 1', \
     keyentry with lines lw 3 lc rgb '#ff7f0e' title 'SM 0', \
     keyentry with lines lw 3 lc rgb '#000000' title 'warp 0 of a block'
