"""A real editor (issue 28, item 7): a headless Neovim attaches `npuprof server` with the snippet docs/editors.md
gives for Neovim 0.7 to 0.9, receives the diagnostics at the right columns (Neovim turns the server's UTF-16
positions into byte columns of its buffer, so Chinese text before the key must come out right), and applies a
quick fix. Skipped where `nvim` is not installed (Debian: apt-get install neovim; .ci/run installs it)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NVIM = shutil.which("nvim")
pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim)")
EDITORS = Path(__file__).resolve().parent.parent / "docs" / "editors.md"

# Chinese text and a character outside the BMP before the key: bytes, UTF-16 units and characters all differ.
TRAIN = """import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/性能😀","L2":"on"}')  # 采集
sess = tf.Session(config=config)
"""

# What the test does inside Neovim once the buffer is open: wait for the diagnostics, record them, ask for
# the code actions of the diagnostic's line, apply the preferred quick fix, record the buffer.
SCRIPT = r"""
local out = {}
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
out.waited = ok
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, end_col = d.end_col, code = d.code,
                                  source = d.source, severity = d.severity, message = d.message })
end
local d = vim.diagnostic.get(0)[1]
if d then
  local params = { textDocument = { uri = vim.uri_from_bufnr(0) },
                   range = { start = { line = d.lnum, character = 0 }, ["end"] = { line = d.lnum + 1, character = 0 } },
                   context = { diagnostics = {} } }
  local answers = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 60000) or {}
  for client_id, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if action.isPreferred and action.edit then
        out.applied = action.title
        vim.lsp.util.apply_workspace_edit(action.edit, vim.lsp.get_client_by_id(client_id).offset_encoding)
      end
    end
  end
end
out.text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") .. "\n"
local f = io.open(vim.env.NPUPROF_NVIM_OUT, "w")
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd("qall!")
"""


def documented_snippet() -> str:
    """The Lua block under docs/editors.md's `### Neovim 0.7 to 0.9`."""
    text = EDITORS.read_text(encoding="utf-8")
    section = text.split("### Neovim 0.7 to 0.9", 1)[1]
    return re.search(r"```lua\n(.*?)```", section, re.S).group(1)


def test_neovim_attaches_the_server_gets_diagnostics_at_the_right_columns_and_applies_a_quick_fix(tmp_path):
    (tmp_path / "init.lua").write_text(documented_snippet(), encoding="utf-8")
    (tmp_path / "test.lua").write_text(SCRIPT, encoding="utf-8")
    train = tmp_path / "train.py"
    train.write_text(TRAIN, encoding="utf-8")
    out = tmp_path / "out.json"
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
               NPUPROF_NVIM_OUT=str(out), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.run([NVIM, "--headless", "-n", "-i", "NONE", "-u", str(tmp_path / "init.lua"), str(train),
                           "-c", f"luafile {tmp_path / 'test.lua'}"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=180)
    assert out.exists(), (proc.returncode, proc.stdout, proc.stderr)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["waited"] is True
    [diag] = result["diagnostics"]
    lines = TRAIN.splitlines()
    row = next(i for i, line in enumerate(lines) if '"L2"' in line)
    key = lines[row].encode("utf-8").index(b'"L2"')     # Neovim's columns are bytes of the buffer's line
    assert (diag["code"], diag["source"], diag["severity"]) == ("NPP101", "npuprof", 1)
    assert (diag["lnum"], diag["col"], diag["end_col"]) == (row, key, key + len('"L2"'))
    assert diag["message"] == ('unknown profiling_options key "L2": on CANN 8.0, GE initialisation fails and the job '
                               "aborts")            # the short message (the project targets CANN 8.0)
    assert result["applied"].startswith("NPP101: ")
    assert result["text"] == TRAIN.replace('"L2"', '"l2"')
