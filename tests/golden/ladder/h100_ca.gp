# h100_ca.gp - latency ladder of h100_ca.tsv, written by bin/plot_ladder.
# Draw again: cd to this folder, then gnuplot -d -c h100_ca.gp [OUTPUT [DATA]]
out = ARGC >= 1 ? ARG1 : 'h100_ca.svg'
dat = ARGC >= 2 ? ARG2 : 'h100_ca.dat'
set terminal svg size 960,600 dynamic background rgb 'white' font 'Helvetica,13'
set termoption noenhanced
set output out
set title 'Pointer-chase latency: NVIDIA H100 80GB HBM3, chase_ca, 128 B spacing'
set xlabel 'working set'
set ylabel 'latency per dependent load (cycles)'
set logscale x 2
set xrange [3442.02:5.11101e+09]
set xtics ('4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536, '256 KiB' 262144, '1 MiB' 1048576, '4 MiB' 4194304, '16 MiB' 16777216, '64 MiB' 67108864, '256 MiB' 268435456, '1 GiB' 1073741824, '4 GiB' 4294967296)
set mxtics 2
set yrange [0:959.123]
set ytics nomirror
set y2label 'ns (SM clock measured: 1980 MHz)'
set y2range [0:484.408]
set y2tics
set grid xtics ytics lc rgb '#dddddd'
set key top left
set arrow 1 from 4096,33.07 to 185344,33.07 nohead lw 5 lc rgb '#cc3311' back
set label 1 'L1: 33 cycles, 17 ns' at 27553,33.07 center offset 0,1.2 front tc rgb '#cc3311'
set arrow 2 from 311680,262.385 to 1.67772e+07,262.385 nohead lw 5 lc rgb '#ee7733' back
set label 2 'L2-near: 262 cycles, 133 ns' at 2.28673e+06,262.385 center offset 0,1.2 front tc rgb '#ee7733'
set arrow 3 from 2.37265e+07,398.23 to 4.74531e+07,398.23 nohead lw 5 lc rgb '#009988' back
set label 3 'L2-far: 398 cycles, 201 ns' at 3.35543e+07,398.23 center offset 0,1.2 front tc rgb '#009988'
set arrow 4 from 7.98063e+07,819.185 to 4.29497e+09,819.185 nohead lw 5 lc rgb '#33bbee' back
set label 4 'DRAM: 819 cycles, 414 ns' at 5.85462e+08,819.185 center offset 0,1.2 front tc rgb '#33bbee'
plot dat using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb '#0077bb' title 'measured'
