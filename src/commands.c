/*
 * commands.c — the one list of commands. Adding a command = a file with its cmd_* function
 * (declared in cli.h) and one row here; its options are rows in cli.c's table.
 */
#include "cli.h"

const command sunset_commands[] = {
    {"scan", CMD_SCAN, cmd_scan, "scan [OPTIONS] [PATH...]",
     "Scan PATHs (default .) and report every remnant of the legacy executors."},
    {"rules", CMD_RULES, cmd_rules, "rules test|list [OPTIONS]",
     "'rules test' checks every rule's examples; 'rules list' lists the rules."},
};
const size_t sunset_n_commands = sizeof sunset_commands / sizeof sunset_commands[0];
