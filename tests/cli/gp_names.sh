#!/usr/bin/env bash
# A name never becomes a gnuplot command (issue 35).  Every chart tool
# writes the names it is given (the output's file name, a log's or a
# table's, a label) into its .gp script through gp_put_text (src/lib/gp.h):
# a file name with a newline and system("touch PWNED"), quotes that open a
# string or follow each other, backslashes, backquotes.  Each chart must be
# drawn, with exit 0, and gnuplot must create nothing else: no PWNED file,
# nothing but the chart, its script and its data in the folder.
source "$(dirname "$0")/../lib.sh"
command -v gnuplot >/dev/null 2>&1 && gnuplot -d -e exit >/dev/null 2>&1 ||
    skip "gnuplot is not installed (apt-get install gnuplot-nox)"
require_bin bin/mklog bin/plot_latency bin/plot_warps bin/plot_ladder bin/plot_throughput bin/report
B=$ROOT/bin FIX=$ROOT/tests/fixtures
cd "$TMP" || exit 1
"$B/mklog" k.bin --kernel baseline --wpb 2 --sm-count 3 --clock-mhz 2000 <"$FIX/post/known.tsv" ||
    fail "mklog could not write the log"

# the names: what a stranger could hand a tool as OUT (stem + .svg)
STEMS=($'x\nsystem("touch PWNED")\n#'
       $'q\'\'\'\\\n!touch PWNED\n\\'
       "\`touch PWNED\`@ARG1")

# drawn DIR STEM: the folder holds exactly STEM.svg, STEM.gp and STEM.dat, all
# written, and no PWNED was made anywhere under $TMP
drawn() {
    local dir=$1 stem=$2 f n=0
    for f in "$stem.svg" "$stem.gp" "$stem.dat"; do
        [ -s "$dir/$f" ] || fail "$dir: no $(printf '%q' "$f")"
    done
    n=$(find "$dir" -mindepth 1 -printf . | wc -c)   # names may hold newlines
    [ "$n" -eq 3 ] || fail "$dir holds $n files, not the chart, its script and its data: $(ls -b "$dir")"
    [ -z "$(find "$TMP" -name PWNED)" ] || fail "gnuplot ran a command from a name: $(find "$TMP" -name PWNED)"
    # the script's first line is its only comment about itself: one line
    [ "$(head -c 2 "$dir/$stem.gp")" = "# " ] && [ "$(sed -n 3p "$dir/$stem.gp" | cut -c1-5)" = "out =" ] ||
        fail "$dir/$(printf '%q' "$stem").gp: a name spilled out of its comment: $(head -n 3 "$dir/$stem.gp")"
}

i=0
for stem in "${STEMS[@]}"; do
    i=$((i + 1))
    for tool in plot_latency plot_warps plot_ladder plot_throughput chart-bandwidth chart-ladders; do
        d=$tool.$i
        mkdir "$d"
        case $tool in
            plot_latency)    expect_exit 0 "$B/plot_latency" k.bin "$d/$stem.svg" ;;
            plot_warps)      expect_exit 0 "$B/plot_warps" k.bin "$d/$stem.svg" ;;
            plot_ladder)     expect_exit 0 "$B/plot_ladder" "$FIX/ladder/h100_ca.tsv" "$d/$stem.svg" --levels-out levels.tsv ;;
            plot_throughput) expect_exit 0 "$B/plot_throughput" "$FIX/post/sweep_baseline_4.tsv" 622 "$d/$stem.svg" ;;
            chart-bandwidth) expect_exit 0 "$B/report" chart-bandwidth "$d/$stem.svg" "$ROOT/data/reference/h100/readonly_1e8_wpb4.tsv" ;;
            chart-ladders)   expect_exit 0 "$B/report" chart-ladders "$d/$stem.svg" "$stem=$ROOT/data/reference/h100/latency_ca.tsv" ;;
        esac
        drawn "$d" "$stem"
    done
done

# names inside the charts: a table's file name and a label, quoted as
# gnuplot reads them (a quote first, quotes in a row, a backslash last)
mkdir lab
cp "$FIX/ladder/h100_ca.tsv" $'\'\'lab\'\'\\'.tsv
expect_exit 0 "$B/plot_ladder" $'\'\'lab\'\'\\'.tsv lab/l.svg --levels-out levels.tsv
drawn lab l
mkdir lab2
expect_exit 0 "$B/report" chart-ladders lab2/l.svg $'\'\'H100\'\'\n!touch PWNED\n\\='"$ROOT/data/reference/h100/latency_ca.tsv" \
    "'=$ROOT/data/reference/h200/latency_ca.tsv"
drawn lab2 l
grep -q "H100''" lab2/l.gp || fail "the label's own quotes are not in the script: $(grep title lab2/l.gp)"
done_testing
