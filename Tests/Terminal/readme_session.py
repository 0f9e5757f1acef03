#!/usr/bin/env python3
"""Records the README's session at a real terminal (a pty of 100 columns, a new store, the
deterministic clock, NO_COLOR=1): the keys are typed as a person types them and what the screen
shows is written down, with Tab and Ctrl-C noted in brackets. terminal_test.py requires the
README's session to be this recording; after a deliberate change, write it again with
`readme_session.py <path-to-closet> --write`."""
import os, re, shutil, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")

# Each step: the keys typed, and the line as the README writes it. `[Tab → W]` is a Tab that
# completed the word to W; `[Tab]` one that listed the choices (the line is then cleared).
STEPS = [
    ('add clothes category=top season=fall description="navy knit"\r',
     'add clothes category=top season=fall description="navy knit"'),
    ('add clothes category=하의 season=가\tdescription="기모 청바지"\r',
     'add clothes category=하의 season=가[Tab → 가을] description="기모 청바지"'),
    ("fil\tclothes season=fall sort=new\r", "fil[Tab → filter] clothes season=fall sort=new"),
    ('add style name="가을용 옷" season=fall top=@2 bottom=@1\r', 'add style name="가을용 옷" season=fall top=@2 bottom=@1'),
    ("lsit styles\r", "lsit styles"),
    ("show clothes E220\r", "show clothes E220"),
    ("list styles s\t", "list styles s[Tab]"),
    ("show clothes \t", "show clothes [Tab]"),
    ("add clothes category=top season=winter desc\x03", "add clothes category=top season=winter desc[Ctrl-C]"),
]
STRIP = re.compile(r"\x1b\[[0-9;?]*[A-Za-z@]|\x1b[=>]|\r|\x07")


def typed_line(readme_line):
    """What the screen's line reads once the keys are typed: each Tab's completion in place."""
    line = re.sub(r"[^\s=]*\[Tab → ([^\]]+)\]", r"\1", readme_line)
    return re.sub(r"\[(Tab|Ctrl-C)\]", "", line).rstrip()


def record(closet):
    from terminal_test_support import Terminal, Screen
    folder = tempfile.mkdtemp(prefix="/tmp/d")
    store = os.path.join(folder, "s")
    env = {"PATH": "/usr/bin:/bin", "HOME": folder, "XDG_STATE_HOME": folder, "TERM": "xterm", "LANG": "C.UTF-8",
           "NO_COLOR": "1", "PAGER": "cat"}
    term = Terminal(closet, ["--store", store, "--deterministic"], env, columns=100)
    try:
        banner = STRIP.sub("", term.expect(r"closet> ")).split("\n")
        lines = [line for line in banner if line and not line.startswith("closet> ")]
        for keys, shown in STEPS:
            screen = Screen()
            screen.feed("closet> ")
            term.buffer = b""
            ends = keys[-1]
            for character in keys[:-1]:
                term.type(character)
                if character == "\t":
                    term.read(0.4)
            term.read(0.3)
            screen.feed(term.buffer.decode("utf-8", "replace"))
            if screen.line != "closet> " + typed_line(shown):
                raise AssertionError(f"the line reads {screen.line!r}, the step says {shown!r}")
            term.buffer = b""
            term.type(ends)
            if ends == "\r":
                text = STRIP.sub("", term.expect(r"closet> $", timeout=10))
                output = text.split("\n", 1)[1] if "\n" in text else ""
                output = output.rsplit("closet> ", 1)[0]
            elif ends == "\t":
                time.sleep(0.5)
                term.read(0.3)
                text = STRIP.sub("", term.buffer.decode("utf-8", "replace"))
                output = text.split("\n", 1)[1] if "\n" in text else ""
                output = output.rsplit("closet> ", 1)[0]
                term.buffer = b""
                term.type("\x15")  # Ctrl-U: the line cleared for the next step
                term.read(0.3)
            else:
                term.expect(r"closet> $")
                output = ""
            lines.append("closet> " + shown)
            lines.extend(line.rstrip() for line in output.rstrip("\n").split("\n") if output.strip())
        lines.append("closet> [Ctrl-D]")
    finally:
        term.close()
        shutil.rmtree(folder, ignore_errors=True)
    return "\n".join(lines).replace(store, "/tmp/demo") + "\n"


def readme_block():
    """The README's session block, and where it is."""
    text = open(README, encoding="utf-8").read()
    start = text.index("```\n", text.index("## A session")) + 4
    end = text.index("```\n", start)
    return text, start, end


if __name__ == "__main__":
    recorded = record(sys.argv[1])
    text, start, end = readme_block()
    if "--write" in sys.argv:
        open(README, "w", encoding="utf-8").write(text[:start] + recorded + text[end:])
    elif text[start:end] != recorded:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            text[start:end].splitlines(True), recorded.splitlines(True), "README.md", "recorded"))
        sys.exit(1)
