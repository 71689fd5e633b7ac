#!/usr/bin/env python3
"""Shell completions (bash, zsh, fish) and the man page (`onnx-lint --generate KIND`): generated
from the same option definitions as --help, so every option of --help is in each; the scripts
are valid for their shell and complete what they should; the man page renders without warnings.

Run by ctest with ONNX_LINT set to the built binary. zsh and fish checks need those shells
(tools/dev.sh installs them); without one, its check is skipped, saying so.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

BIN = os.environ.get("ONNX_LINT", "onnx-lint")
KINDS = ("completion-bash", "completion-zsh", "completion-fish", "man")


def generate(kind):
    proc = subprocess.run([BIN, "--generate", kind], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def help_options():
    out = subprocess.run([BIN, "--help"], capture_output=True, text=True, timeout=60).stdout
    names = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b", out))
    assert "--format" in names and "-o" in names, out
    return names


class Completions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="onnxlint-completion-")
        cls.files = {}
        for kind in KINDS:
            path = os.path.join(cls.dir, kind)
            with open(path, "w") as f:
                f.write(generate(kind))
            cls.files[kind] = path

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def text(self, kind):
        with open(self.files[kind]) as f:
            return f.read()

    def test_every_help_option_is_in_every_output(self):
        names = help_options()
        for kind in KINDS:
            text = self.text(kind)
            if kind == "man":
                text = re.sub(r"\\f[BIR]", "", text.replace("\\-", "-"))
            for name in names:
                if kind == "completion-fish":  # fish names them "-l format" / "-s o"
                    flag = ("-l " + name[2:]) if name.startswith("--") else ("-s " + name[1:])
                    self.assertIn(flag, text, f"{name} missing from {kind}")
                else:
                    self.assertRegex(text, rf"(?<![\w-]){re.escape(name)}(?![\w-])",
                                     f"{name} missing from {kind}")

    def bash_complete(self, *words, cwd=None):
        """COMPREPLY of the generated bash function for the command line `words` (the last is
        the word being completed)."""
        script = (f'source "{self.files["completion-bash"]}"\n'
                  'complete -p onnx-lint >/dev/null || exit 3\n'
                  'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _onnx_lint\n'
                  'printf "%s\\n" "${COMPREPLY[@]}"\n')
        proc = subprocess.run(["bash", "-c", script, "bash", "onnx-lint", *words],
                              capture_output=True, text=True, cwd=cwd or self.dir, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return [w for w in proc.stdout.split("\n") if w]

    def test_bash(self):
        proc = subprocess.run(["bash", "-n", self.files["completion-bash"]], capture_output=True,
                              text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--format", self.bash_complete("--for"))
        self.assertEqual(self.bash_complete("--gen"), [])  # --generate is hidden
        self.assertEqual(self.bash_complete("--format", "j"), ["json", "junit"])
        self.assertEqual(self.bash_complete("--format", "=", "j"), ["json", "junit"])
        self.assertEqual(self.bash_complete("--fail-on", "w"), ["warning"])
        self.assertIn("tensorrt", self.bash_complete("--target", "tens"))
        self.assertEqual(self.bash_complete("--explain", "graph-dead"), ["graph-dead-node"])
        self.assertEqual(self.bash_complete("--select", "graph-dead-node,model-ir"),
                         ["graph-dead-node,model-ir-version"])
        self.assertIn("ALL", self.bash_complete("--ignore", "A"))
        # Files for file-valued options and for the models.
        open(os.path.join(self.dir, "model.onnx"), "w").close()
        self.assertEqual(self.bash_complete("--config", "model."), ["model.onnx"])
        self.assertEqual(self.bash_complete("mod"), ["model.onnx"])
        self.assertEqual(self.bash_complete("-j", "x"), [])  # a number: nothing to offer

    def test_zsh(self):
        if shutil.which("zsh") is None:
            self.skipTest("zsh is not installed (tools/dev.sh installs it)")
        proc = subprocess.run(["zsh", "-n", self.files["completion-zsh"]], capture_output=True,
                              text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(self.text("completion-zsh").startswith("#compdef onnx-lint\n"))

    def test_fish(self):
        if shutil.which("fish") is None:
            self.skipTest("fish is not installed (tools/dev.sh installs it)")
        proc = subprocess.run(["fish", "-n", self.files["completion-fish"]], capture_output=True,
                              text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # Loaded into fish, the options complete (fish's own completion engine).
        proc = subprocess.run(["fish", "--no-config", "-c",
                               f"source {self.files['completion-fish']}; "
                               "complete -C 'onnx-lint --format '"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("json", proc.stdout.split())

    def test_man_page_renders_without_warnings(self):
        proc = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", self.files["man"]],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")
        proc = subprocess.run(["groff", "-man", "-Tutf8", self.files["man"]],
                              capture_output=True, text=True)
        page = re.sub(r".\x08", "", proc.stdout)
        self.assertIn("onnx-lint - static checks for ONNX models", page)
        self.assertIn("--stdin-filename", page)
        self.assertIn("EXIT STATUS", page)

    def test_unknown_kind_is_a_usage_error(self):
        proc = subprocess.run([BIN, "--generate", "completion-tcsh"], capture_output=True)
        self.assertEqual(proc.returncode, 2)


if __name__ == "__main__":
    unittest.main()
