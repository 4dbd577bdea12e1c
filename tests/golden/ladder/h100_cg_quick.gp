# h100_cg_quick.gp - latency ladder of h100_cg_quick.tsv, written by bin/plot_ladder.
# Draw again: cd to this folder, then gnuplot -d -c h100_cg_quick.gp [OUTPUT [DATA]]
out = ARGC >= 1 ? ARG1 : 'h100_cg_quick.svg'
dat = ARGC >= 2 ? ARG2 : 'h100_cg_quick.dat'
set terminal svg size 960,600 dynamic background rgb 'white' font 'Helvetica,13'
set termoption noenhanced
set output out
set title 'Pointer-chase latency: NVIDIA H100 80GB HBM3, chase_cg, 128 B spacing'
set xlabel 'working set'
set ylabel 'latency per dependent load (cycles)'
set logscale x 2
set xrange [3442.02:1.27775e+09]
set xtics ('4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536, '256 KiB' 262144, '1 MiB' 1048576, '4 MiB' 4194304, '16 MiB' 16777216, '64 MiB' 67108864, '256 MiB' 268435456, '1 GiB' 1073741824)
set mxtics 2
set yrange [0:961.308]
set ytics nomirror
set y2label 'ns (SM clock measured: 1980 MHz)'
set y2range [0:485.507]
set y2tics
set grid xtics ytics lc rgb '#dddddd'
set key top left
set arrow 1 from 4096,261.25 to 1.67772e+07,261.25 nohead lw 5 lc rgb '#cc3311' back
set label 1 'L2-near: 261 cycles, 132 ns' at 262144,261.25 center offset 0,1.2 front tc rgb '#cc3311'
set arrow 2 from 2.37265e+07,396.16 to 4.74531e+07,396.16 nohead lw 5 lc rgb '#ee7733' back
set label 2 'L2-far: 396 cycles, 200 ns' at 3.35543e+07,396.16 center offset 0,1.2 front tc rgb '#ee7733'
set arrow 3 from 9.49062e+07,822.825 to 1.07374e+09,822.825 nohead lw 5 lc rgb '#009988' back
set label 3 'DRAM: 823 cycles, 416 ns' at 3.19225e+08,822.825 center offset 0,1.2 front tc rgb '#009988'
plot dat using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb '#0077bb' title 'measured'
