/*
 * gone_script.c — lint-headers fixture: its only fault is a comment naming a script the
 * checkout does not have (see scripts/lint-gone.sh), which make lint-headers must reject.
 */
int gone_script;
