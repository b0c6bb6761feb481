# c-code.awk — shared by the lints that read C (lint-clock.sh, lint-stderr.sh): code_of(line) is
# the line without its comments (/* */ across lines, //) and with each string and character
# literal a space. A comment open at the end of a line carries over in `incomment`; a lint
# resets it at each file's first line. POSIX awk.
function code_of(line,    out, e, tok, c) {
    out = ""
    while (length(line) > 0) {
        if (incomment) {
            e = index(line, "*/")
            if (!e) { line = ""; break }
            line = substr(line, e + 2); incomment = 0; continue
        }
        if (match(line, /\/\*|\/\/|"|\047/) == 0) { out = out line; break }
        out = out substr(line, 1, RSTART - 1); tok = substr(line, RSTART, RLENGTH)
        line = substr(line, RSTART + RLENGTH)
        if (tok == "//") break
        if (tok == "/*") { incomment = 1; continue }
        # a literal: skip to its closing quote, escapes included
        while (length(line) > 0) {
            c = substr(line, 1, 1); line = substr(line, 2)
            if (c == "\\") { line = substr(line, 2); continue }
            if (c == tok) break
        }
        out = out " "
    }
    return out
}
