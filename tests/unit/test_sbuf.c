/* test_sbuf.c - the sentence builder: appends, stops at the end of the
 * buffer with the text so far terminated, and says so. */
#include <string.h>

#include "check.h"
#include "sbuf.h"

int main(void)
{
    char buf[16];
    sb s;
    sb_init(&s, buf, sizeof buf);
    CHECK(!strcmp(buf, ""));
    sb_add(&s, "%d cycles", 682);
    sb_add(&s, ", %s", "ok");
    CHECK(!strcmp(buf, "682 cycles, ok"));
    CHECK(sb_done(&s) == 0);

    /* 14 + 2 bytes need 17 with the terminator: overflow, the 14 stay */
    sb_add(&s, "!!");
    CHECK(!strcmp(buf, "682 cycles, ok"));
    CHECK(sb_done(&s) == -1);
    sb_add(&s, "x"); /* nothing more after an overflow, even what would fit */
    CHECK(!strcmp(buf, "682 cycles, ok"));

    /* exactly full (15 characters + terminator) fits */
    sb_init(&s, buf, sizeof buf);
    sb_add(&s, "%s", "123456789012345");
    CHECK(sb_done(&s) == 0 && strlen(buf) == 15);

    /* a zero-length buffer is overflowed at once and never written */
    char one[1] = {'z'};
    sb_init(&s, one, 0);
    sb_add(&s, "a");
    CHECK(sb_done(&s) == -1 && one[0] == 'z');

    CHECK(sb_nothing(buf, sizeof buf) == 1 && buf[0] == 0);
    CHECK(sb_nothing(one, 0) == 1 && one[0] == 'z');

    /* sb_cat: onto what is there, cut short at the end, then nothing */
    char note[10] = "ab";
    sb_cat(note, sizeof note, "%s-%d", "cd", 7);
    CHECK(strcmp(note, "abcd-7") == 0);
    sb_cat(note, sizeof note, "%s", "xyzw");
    CHECK(strcmp(note, "abcd-7xyz") == 0);
    sb_cat(note, sizeof note, "%s", "more");
    CHECK(strcmp(note, "abcd-7xyz") == 0);
    return check_report("test_sbuf");
}
