#!/usr/bin/python3
"""run-action.py — run a composite GitHub Action's steps locally, as the runner would, to test
action.yml end to end without GitHub: each `run:` step in bash with its `env:`, `working-directory:`
and the runner's files ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY, $RUNNER_TEMP, $GITHUB_ACTION_PATH);
$RUNNER_TEMP is the caller's when set (else a new temporary directory);
`${{ }}` expressions over inputs, steps.<id>.outputs, vars, github (the event given as JSON) and
always()/success(); a `uses:` step is not run but reported with its inputs when its `if:`
holds ("USES name with k=v ..."), so a test can see whether the SARIF upload would happen.

  run-action.py ACTION_DIR EVENT_JSON [INPUT=VALUE ...]     (in the checked repository)
  run-action.py --workflow FILE [--job ID] [--var K=V ...] [--repo OWNER/NAME=SOURCE ...] EVENT_JSON
                                                            (in an empty workspace)

With --workflow, a job of a workflow runs in the current directory as $GITHUB_WORKSPACE:
`actions/checkout` clones the repository its `with:` names (default the event's `repository`)
from the SOURCE given for it by --repo (a git URL, `#REF` naming the branch, depth 1; a plain
directory is linked as it is) into its `path:`; a local action (`uses: ./DIR`) runs as above
with the step's `with:` as its inputs; other `uses:` are reported.

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


def run_steps(steps, ctx, tmp, summary, action_path, cwd, prefix=""):
    """The steps in order; returns (failed, rc). A workflow's local action runs its own steps."""
    failed, rc = False, 0
    for i, step in enumerate(steps):
        sid = step.get("id", f"{prefix}step{i}")
        name = step.get("name", sid)
        cond = step.get("if")
        if cond is not None:
            ok = evaluate(EXPR.sub(lambda m: m.group(1), str(cond)), ctx, failed)
        else:
            ok = not failed
        if not ok:
            print(f"SKIP {name}", flush=True)
            continue
        code = 0
        if "uses" in step:
            with_ = {k: substitute(v, ctx, failed) for k, v in (step.get("with") or {}).items()}
            hook = ctx.get("uses_hook")
            code = hook(step["uses"], with_, name, cwd) if hook else None
            if code is None:
                print(f"USES {step['uses']} with " + " ".join(f"{k}={v}" for k, v in with_.items()), flush=True)
                continue
        else:
            out_file = os.path.join(tmp, f"{prefix}{sid}.out")
            env = dict(os.environ)
            env.update({k: substitute(v, ctx, failed) for k, v in (step.get("env") or {}).items()})
            env.update(GITHUB_OUTPUT=out_file, GITHUB_STEP_SUMMARY=summary, RUNNER_TEMP=tmp)
            if action_path:
                env["GITHUB_ACTION_PATH"] = action_path
            wd = os.path.join(cwd, substitute(step.get("working-directory", "."), ctx, failed))
            print(f"RUN {name}", flush=True)
            code = subprocess.call(["bash", "-e", "-c", substitute(step["run"], ctx, failed)], env=env, cwd=wd)
            ctx["steps"][sid] = {"outputs": read_outputs(out_file)}
        if code != 0 and not failed:
            failed, rc = True, code
    return failed, rc


def run_action(action_dir, github, inputs_given, vars_, tmp, summary, cwd):
    with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    inputs = {k: str(v.get("default", "")) for k, v in (action.get("inputs") or {}).items()}
    inputs.update(inputs_given)
    ctx = {"inputs": inputs, "steps": {}, "github": github, "vars": vars_}
    return run_steps(action["runs"]["steps"], ctx, tmp, summary, os.path.abspath(action_dir), cwd,
                     prefix=os.path.basename(os.path.abspath(action_dir)) + "-")[1]


def checkout(with_, github, repos, cwd):
    """actions/checkout, from the --repo SOURCE given for the repository."""
    name = with_.get("repository") or github.get("repository", "")
    if name not in repos:
        print(f"run-action: no --repo source for {name!r}", file=sys.stderr)
        return 1
    src, _, ref = repos[name].partition("#")
    ref = with_.get("ref") if with_.get("repository") else ref
    dest = os.path.join(cwd, with_.get("path") or ".")
    print(f"CHECKOUT {name} into {with_.get('path') or '.'}", flush=True)
    if "://" not in src:
        os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
        os.symlink(os.path.abspath(src), dest)  # a working copy, as it is
        return 0
    cmd = ["git", "clone", "-q", "--depth", "1"] + (["--branch", ref] if ref else []) + [src, dest]
    return subprocess.call(cmd)


def run_workflow(path, job_id, github, vars_, repos, tmp, summary):
    with open(path, encoding="utf-8") as f:
        wf = yaml.safe_load(f)
    jobs = wf["jobs"]
    job = jobs[job_id or next(iter(jobs))]
    cwd = os.getcwd()
    github.setdefault("workspace", cwd)

    def uses(ref, with_, name, wd):
        if ref.startswith("actions/checkout@"):
            return checkout(with_, github, repos, cwd)
        if ref.startswith("./"):
            print(f"ACTION {ref}", flush=True)
            return run_action(os.path.join(cwd, ref), github, with_, vars_, tmp, summary, cwd)
        return None

    ctx = {"inputs": {}, "steps": {}, "github": github, "vars": vars_, "uses_hook": uses}
    return run_steps(job["steps"], ctx, tmp, summary, None, cwd)[1]


def main():
    args = sys.argv[1:]
    workflow, job, vars_, repos = None, None, {}, {}
    while args and args[0].startswith("--"):
        opt, val = args[0], args[1]
        args = args[2:]
        if opt == "--workflow":
            workflow = val
        elif opt == "--job":
            job = val
        elif opt == "--var":
            k, v = val.split("=", 1)
            vars_[k] = v
        elif opt == "--repo":
            k, v = val.split("=", 1)
            repos[k] = v
        else:
            raise SystemExit(f"run-action: unknown option {opt}")
    # $RUNNER_TEMP when the caller gives one (a test reads the files the steps leave there)
    tmp = os.environ.get("RUNNER_TEMP") or tempfile.mkdtemp(prefix="run-action-")
    summary = os.environ.get("GITHUB_STEP_SUMMARY") or os.path.join(tmp, "summary.md")
    open(summary, "a").close()
    if workflow:
        with open(args[0], encoding="utf-8") as f:
            github = json.load(f)
        rc = run_workflow(workflow, job, github, vars_, repos, tmp, summary)
    else:
        action_dir, event_file = args[0], args[1]
        with open(event_file, encoding="utf-8") as f:
            github = json.load(f)
        given = dict(kv.split("=", 1) for kv in args[2:])
        rc = run_action(action_dir, github, given, vars_, tmp, summary, os.getcwd())
    print(f"SUMMARY {summary}", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
