#!/usr/bin/env bash
# Final device run C: `make report` on the H100, the whole study end to end.
# The GPU machines have no gnuplot and no network; this session carries a
# gnuplot build with its libraries in .gnuplot/ (not part of the project).
set -u
O=${OUT:-/tmp/out}; mkdir -p $O
exec > >(tee $O/log_c.txt) 2>&1
[ -x .gnuplot/bin/gnuplot ] && export PATH=$PWD/.gnuplot/bin:$PATH
gnuplot --version
make -j16 2>&1 | grep -E 'error|Error|skipped'
T0=$SECONDS
/usr/bin/time -f "make report wall_s %e" make report 2>&1 | grep -vE '^\s+occupancy_profile.sh: \[' | tail -40
echo "report took $((SECONDS-T0)) s"
du -sh report; ls report report/charts | head -80
tar czf $O/report.tgz --exclude='report/data/logs_1e8*' --exclude='*.bin' report
