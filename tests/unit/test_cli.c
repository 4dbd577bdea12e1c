/* test_cli.c - the experiments' argument parsing. */
#include <stdint.h>
#include "check.h"
#include "cli.h"

static uint64_t v;
static char err[256];

static int count(const char *s) { err[0] = 0; return cli_parse_count("N", s, 1ull << 36, &v, err, sizeof err); }

int main(void)
{
    /* accepted forms */
    CHECK(count("100000000") == 0); CHECK_EQ_U(v, 100000000);
    CHECK(count("1e8") == 0);       CHECK_EQ_U(v, 100000000);
    CHECK(count("1E8") == 0);       CHECK_EQ_U(v, 100000000);
    CHECK(count("2.5e3") == 0);     CHECK_EQ_U(v, 2500);
    CHECK(count("64M") == 0);       CHECK_EQ_U(v, 64ull << 20);
    CHECK(count("4K") == 0);        CHECK_EQ_U(v, 4096);
    CHECK(count("1") == 0);         CHECK_EQ_U(v, 1);
    /* rejected: non-numeric, negative, zero, fraction, overflow */
    CHECK(count("abc") == -1);      CHECK_STR_HAS(err, "not a number");
    CHECK(count("1e8x") == -1);     CHECK_STR_HAS(err, "not a number");
    CHECK(count("") == -1);         CHECK_STR_HAS(err, "empty");
    CHECK(count("-5") == -1);       CHECK_STR_HAS(err, "negative");
    CHECK(count("-1e8") == -1);     CHECK_STR_HAS(err, "negative");
    CHECK(count("0") == -1);        CHECK_STR_HAS(err, "at least 1");
    CHECK(count("0e0") == -1);      CHECK_STR_HAS(err, "at least 1");
    CHECK(count("1.5") == -1);      CHECK_STR_HAS(err, "whole number");
    CHECK(count("1e-3") == -1);     CHECK_STR_HAS(err, "whole number");
    CHECK(count("99999999999999999999999") == -1); CHECK_STR_HAS(err, "too large");
    CHECK(count("1e30") == -1);     CHECK_STR_HAS(err, "too large");
    CHECK(count("1e11") == -1);     CHECK_STR_HAS(err, "too large"); /* above 2^36 */
    CHECK(count("inf") == -1);
    CHECK(count("nan") == -1);
    /* ranges (WPB 1..32, SMEM 0..) */
    CHECK(cli_parse_range("WPB", "32", 1, 32, &v, err, sizeof err) == 0); CHECK_EQ_U(v, 32);
    CHECK(cli_parse_range("WPB", "0", 1, 32, &v, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "between 1 and 32");
    CHECK(cli_parse_range("WPB", "33", 1, 32, &v, err, sizeof err) == -1);
    CHECK(cli_parse_range("SMEM", "0", 0, 1u << 30, &v, err, sizeof err) == 0); CHECK_EQ_U(v, 0);
    /* shared memory against the H100's limits: 227 KiB opt-in per block */
    CHECK(cli_check_smem(232448, 232448, 233472, 1024, "H100", err, sizeof err) == 0);
    CHECK(cli_check_smem(0, 232448, 233472, 1024, "H100", err, sizeof err) == 0);
    CHECK(cli_check_smem(232449, 232448, 233472, 1024, "H100", err, sizeof err) == -1);
    CHECK_STR_HAS(err, "232448 bytes with opt-in");
    CHECK_STR_HAS(err, "reserves 1024");
    return check_report("test_cli");
}
