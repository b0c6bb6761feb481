/*
 * commands.c — the one list of commands. Adding a command = a file with its cmd_* function
 * (declared in cli.h) and one row here; its options are rows in cli.c's table.
 */
#include "cmd/cli.h"

const command sunset_commands[] = {
    {"scan", CMD_SCAN, cmd_scan, "scan [OPTIONS] [PATH...]",
     "Scan PATHs (default .) and report every remnant of the legacy executors."},
    {"rules", CMD_RULES, cmd_rules, "rules test|list|show [ID...] [OPTIONS]",
     "'rules test' checks every rule's examples; 'rules list' lists the rules; 'rules show ID'\n"
     "explains one: message, rationale, fix and examples."},
    {"baseline", CMD_BASELINE, cmd_baseline, "baseline [OPTIONS] [PATH...]",
     "Record today's findings in a baseline file (default .sunset-baseline.json) for 'check'."},
    {"check", CMD_CHECK, cmd_check, "check [OPTIONS] [PATH...]",
     "The pull-request gate: fail (exit 1) on findings not in the baseline / added since REV."},
    {"history", CMD_HISTORY, cmd_history, "history [OPTIONS] [REV_RANGE]",
     "Replay the rules over first-parent commits (default: the last 100) and write the burn-down\n"
     "as CSV, JSON or an SVG chart, reading git objects directly (no checkout)."},
    {"merge", CMD_MERGE, cmd_merge, "merge [OPTIONS] FILE...",
     "Join the JSON outputs of 'scan --shard' or 'history --shard' runs into one document,\n"
     "equal to an unsharded run's."},
    {"report", CMD_REPORT, cmd_report, "report [OPTIONS] [PATH]",
     "Measure the tracking issue of rules/tracking/*.json against a scan of PATH: Markdown\n"
     "(default), JSON or HTML; --update rewrites the marked region of an issue body."},
    {"removable", CMD_REMOVABLE, cmd_removable, "removable [OPTIONS] [PATH]",
     "The removal plan: legacy code found by the rules and across files (inheritance, imports,\n"
     "includes, CMake DEPS, flags, passes), dead or still live; --patch writes a git diff."},
};
const size_t sunset_n_commands = sizeof sunset_commands / sizeof sunset_commands[0];
