/*
 * long.c — the lint-funcs fixture: `make lint-funcs` must reject long_dispatch (its body is
 * 100 lines and more, its signature over two lines) and let the short ones through.
 */
#include <string.h>

static int one_line(int x) { return x + 1; }

int short_one(const char *s) {
    return s && *s ? one_line((int)strlen(s)) : 0;
}

int long_dispatch(const char *verb,
                  int arg) {
    int acc = 0;
    if (strcmp(verb, "scan0") == 0)
        acc += arg * 1;
    if (strcmp(verb, "check1") == 0)
        acc += arg * 2;
    if (strcmp(verb, "baseline2") == 0)
        acc += arg * 3;
    if (strcmp(verb, "report3") == 0)
        acc += arg * 4;
    if (strcmp(verb, "history4") == 0)
        acc += arg * 5;
    if (strcmp(verb, "removable5") == 0)
        acc += arg * 6;
    if (strcmp(verb, "merge6") == 0)
        acc += arg * 7;
    if (strcmp(verb, "rules7") == 0)
        acc += arg * 8;
    if (strcmp(verb, "help8") == 0)
        acc += arg * 9;
    if (strcmp(verb, "version9") == 0)
        acc += arg * 10;
    if (strcmp(verb, "scan10") == 0)
        acc += arg * 11;
    if (strcmp(verb, "check11") == 0)
        acc += arg * 12;
    if (strcmp(verb, "baseline12") == 0)
        acc += arg * 13;
    if (strcmp(verb, "report13") == 0)
        acc += arg * 14;
    if (strcmp(verb, "history14") == 0)
        acc += arg * 15;
    if (strcmp(verb, "removable15") == 0)
        acc += arg * 16;
    if (strcmp(verb, "merge16") == 0)
        acc += arg * 17;
    if (strcmp(verb, "rules17") == 0)
        acc += arg * 18;
    if (strcmp(verb, "help18") == 0)
        acc += arg * 19;
    if (strcmp(verb, "version19") == 0)
        acc += arg * 20;
    if (strcmp(verb, "scan20") == 0)
        acc += arg * 21;
    if (strcmp(verb, "check21") == 0)
        acc += arg * 22;
    if (strcmp(verb, "baseline22") == 0)
        acc += arg * 23;
    if (strcmp(verb, "report23") == 0)
        acc += arg * 24;
    if (strcmp(verb, "history24") == 0)
        acc += arg * 25;
    if (strcmp(verb, "removable25") == 0)
        acc += arg * 26;
    if (strcmp(verb, "merge26") == 0)
        acc += arg * 27;
    if (strcmp(verb, "rules27") == 0)
        acc += arg * 28;
    if (strcmp(verb, "help28") == 0)
        acc += arg * 29;
    if (strcmp(verb, "version29") == 0)
        acc += arg * 30;
    if (strcmp(verb, "scan30") == 0)
        acc += arg * 31;
    if (strcmp(verb, "check31") == 0)
        acc += arg * 32;
    if (strcmp(verb, "baseline32") == 0)
        acc += arg * 33;
    if (strcmp(verb, "report33") == 0)
        acc += arg * 34;
    if (strcmp(verb, "history34") == 0)
        acc += arg * 35;
    if (strcmp(verb, "removable35") == 0)
        acc += arg * 36;
    if (strcmp(verb, "merge36") == 0)
        acc += arg * 37;
    if (strcmp(verb, "rules37") == 0)
        acc += arg * 38;
    if (strcmp(verb, "help38") == 0)
        acc += arg * 39;
    if (strcmp(verb, "version39") == 0)
        acc += arg * 40;
    if (strcmp(verb, "scan40") == 0)
        acc += arg * 41;
    if (strcmp(verb, "check41") == 0)
        acc += arg * 42;
    if (strcmp(verb, "baseline42") == 0)
        acc += arg * 43;
    if (strcmp(verb, "report43") == 0)
        acc += arg * 44;
    if (strcmp(verb, "history44") == 0)
        acc += arg * 45;
    if (strcmp(verb, "removable45") == 0)
        acc += arg * 46;
    if (strcmp(verb, "merge46") == 0)
        acc += arg * 47;
    if (strcmp(verb, "rules47") == 0)
        acc += arg * 48;
    if (strcmp(verb, "help48") == 0)
        acc += arg * 49;
    if (strcmp(verb, "version49") == 0)
        acc += arg * 50;
    return acc;
}
