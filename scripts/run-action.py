#!/usr/bin/python3
"""run-action.py — run a composite GitHub Action's steps locally, as the runner would, to test
action.yml end to end without GitHub: each `run:` step in bash with its `env:` and the
runner's files ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY, $RUNNER_TEMP, $GITHUB_ACTION_PATH);
`${{ }}` expressions over inputs, steps.<id>.outputs, github (the event given as JSON) and
always()/success(); a `uses:` step is not run but reported with its inputs when its `if:`
holds ("USES name with k=v ..."), so a test can see whether the SARIF upload would happen.

  run-action.py ACTION_DIR EVENT_JSON [INPUT=VALUE ...]     (in the checked repository)

Exit: the first failing step's exit code (later steps run only when their if: says always()).
Needs PyYAML (Debian: python3-yaml, which pre-commit brings).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
TOKEN = re.compile(r"'[^']*'|&&|\|\||==|!=|!|\(|\)|[A-Za-z_][\w.\-]*(?:\(\))?|\s+")


def lookup(ctx, path):
    cur = ctx
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return ""
    return "" if cur is None else cur


def evaluate(expr, ctx, failed):
    """The subset of GitHub's expression language action.yml uses."""
    out, pos = [], 0
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m:
            raise SystemExit(f"run-action: cannot evaluate {expr!r} at {pos}")
        t = m.group(0)
        pos = m.end()
        if t.isspace():
            continue
        if t == "&&":
            out.append(" and ")
        elif t == "||":
            out.append(" or ")
        elif t == "!":
            out.append(" not ")
        elif t in ("==", "!=", "(", ")"):
            out.append(t)
        elif t.startswith("'"):
            out.append(repr(t[1:-1]))
        elif t == "always()":
            out.append("True")
        elif t == "success()":
            out.append(repr(not failed))
        elif t == "failure()":
            out.append(repr(failed))
        elif t in ("true", "false"):
            out.append(t.capitalize())
        else:
            out.append(repr(lookup(ctx, t)))
    return eval("".join(out), {"__builtins__": {}})  # noqa: S307 — our own token list only


def substitute(text, ctx, failed):
    return EXPR.sub(lambda m: str(evaluate(m.group(1), ctx, failed)), str(text))


def read_outputs(path):
    outs = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    outs[k] = v
    return outs


def main():
    action_dir, event_file = sys.argv[1], sys.argv[2]
    with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    with open(event_file, encoding="utf-8") as f:
        github = json.load(f)
    inputs = {k: str(v.get("default", "")) for k, v in (action.get("inputs") or {}).items()}
    for kv in sys.argv[3:]:
        k, v = kv.split("=", 1)
        inputs[k] = v
    tmp = tempfile.mkdtemp(prefix="run-action-")
    summary = os.environ.get("GITHUB_STEP_SUMMARY") or os.path.join(tmp, "summary.md")
    open(summary, "a").close()
    ctx = {"inputs": inputs, "steps": {}, "github": github}
    failed, rc = False, 0
    for i, step in enumerate(action["runs"]["steps"]):
        sid = step.get("id", f"step{i}")
        cond = step.get("if")
        if cond is not None:
            ok = evaluate(EXPR.sub(lambda m: m.group(1), str(cond)), ctx, failed)
        else:
            ok = not failed
        if not ok:
            print(f"SKIP {step.get('name', sid)}", flush=True)
            continue
        if "uses" in step:
            with_ = {k: substitute(v, ctx, failed) for k, v in (step.get("with") or {}).items()}
            print(f"USES {step['uses']} with " + " ".join(f"{k}={v}" for k, v in with_.items()), flush=True)
            continue
        out_file = os.path.join(tmp, f"{sid}.out")
        env = dict(os.environ)
        env.update({k: substitute(v, ctx, failed) for k, v in (step.get("env") or {}).items()})
        env.update(GITHUB_OUTPUT=out_file, GITHUB_STEP_SUMMARY=summary, RUNNER_TEMP=tmp,
                   GITHUB_ACTION_PATH=os.path.abspath(action_dir))
        print(f"RUN {step.get('name', sid)}", flush=True)
        code = subprocess.call(["bash", "-e", "-c", substitute(step["run"], ctx, failed)], env=env)
        ctx["steps"][sid] = {"outputs": read_outputs(out_file)}
        if code != 0 and not failed:
            failed, rc = True, code
    print(f"SUMMARY {summary}", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
