#!/usr/bin/env python3
"""End-to-end test of closet at a real terminal: the binary runs in a pseudo-terminal
(Python's pty module, so nothing needs installing), keys are typed as a person would, and
the screen output is checked. Usage: terminal_test.py <path-to-closet>"""
import os, pty, re, signal, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import readme_session
import terminal_test_support as support
from terminal_test_support import Screen

CLOSET = sys.argv[1]
PASSED, FAILED = [], []


class Terminal(support.Terminal):
    def __init__(self, args, env, columns=None):
        super().__init__(CLOSET, args, env, columns)


def check(name, body):
    try:
        body()
        PASSED.append(name)
    except AssertionError as error:
        FAILED.append(name)
        print(f"FAIL {name}: {error}")


state = tempfile.mkdtemp()
# PAGER=cat: output taller than the pty would otherwise wait in less for a key.
env = {"PATH": "/usr/bin:/bin", "HOME": state, "XDG_STATE_HOME": state, "TERM": "xterm", "LANG": "C", "NO_COLOR": "1",
       "PAGER": "cat"}
args = ["--store", ":memory:", "--deterministic"]
strip = lambda text: re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", text)


def adds(name, count, category, season, word):
    """A script of `count` add statements in the state folder; returns its path."""
    path = os.path.join(state, name)
    with open(path, "w") as f:
        for i in range(count):
            f.write(f"add clothes category={category} season={season} description={word}{i}\n")
    return path


def session_checks():
    term = Terminal(args, env)
    check("banner and prompt appear", lambda: term.expect(r"closet .* '\.help' for help.*\n.*closet> "))
    # With echo on, each statement is printed as it reached the evaluator: completions and
    # edits are checked there, not in the terminal's redraw sequences.
    term.type(".echo on\r")
    term.expect(r"closet> ")

    def completes_filter():
        term.type("fil\t")
        term.read(0.3)
        term.type("clothes season=f\t")
        term.read(0.3)
        term.type("\r")
        term.expect(r"closet> filter clothes season=fall \r?\n[\s\S]*\(0 rows\)[\s\S]*closet> ")
    check("fil<TAB> completes to filter, season=f<TAB> to fall", completes_filter)

    def ctrl_c_drops_line():
        term.type("add clothes category=top season=winter description=dropped")
        term.expect(r"dropped")
        term.type("\x03")
        term.read(0.3)
        term.type("count clothes\r")
        text = term.expect(r"closet> count clothes\r?\n[\s\S]*closet> ")
        assert "dropped" not in text.split("closet> count clothes")[1], text
        assert re.search(r"\b0\b", strip(text)), strip(text)
    check("Ctrl-C drops a half-typed line", ctrl_c_drops_line)

    def hangul_arrives_intact():
        term.type(".mode json\r")
        term.expect(r"closet> ")
        term.type('add clothes category=하의 season=가을 description="기모 청바지 café"\r')
        text = term.expect(r"\}\s*\r?\n[\s\S]*closet> ")
        assert '"category":"bottom","season":"fall","description":"기모 청바지 café"' in text, text
    check("Hangul typed at the prompt reaches the evaluator intact", hangul_arrives_intact)

    def korean_completion():
        term.type("count clothes season=가\t")
        term.read(0.3)
        term.type("\r")
        term.expect(r'closet> count clothes season=가을 \r?\n\{"count":1\}')
    check("season=가<TAB> completes to 가을", korean_completion)

    def continuation():
        term.type("count clothes \\\r")
        term.expect(r"\.\.\.> ")
        term.type("category=bottom\r")
        term.expect(r'\{"count":1\}')
    check("a trailing backslash continues under the continuation prompt", continuation)

    def ctrl_c_stops_a_long_read():
        script = adds("long.closet", 40000, "top", "summer", "bulk")
        term.type(".echo off\r")
        term.expect(r"closet> ")
        term.type(f".read {script}\r")
        time.sleep(0.5)
        term.type("\x03")
        term.expect(r"interrupted: stopped '.*long\.closet' before line \d+; nothing of it was kept[\s\S]*closet> ", timeout=30)
        term.type("count clothes season=summer\r")
        term.expect(r'\{"count":0\}')
    check("Ctrl-C during a long .read stops it and keeps nothing of it", ctrl_c_stops_a_long_read)

    def completes_paths_with_blanks():
        folder = os.path.join(state, "my photos")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "a b.closet"), "w") as script:
            script.write("count clothes season=winter\n")
        term.type(".read ~/my\t")  # ~ is the home folder (HOME is the state folder here)
        term.read(0.3)
        term.type("\t")
        term.read(0.3)
        term.type("\r")
        text = term.expect(r"\{\"count\":0\}")
        assert "'~/my photos/" in text and "a b.closet' " in text, text
    check("file names with blanks complete quoted, after ~/ too (issue 10: 13)", completes_paths_with_blanks)

    code = term.close()
    check("Ctrl-D on an empty line quits with status 0", lambda: (_ for _ in ()).throw(AssertionError(f"exit {code}")) if code != 0 else None)


def history_checks():
    term = Terminal(args, env)
    term.expect(r"closet> ")
    term.type(".mode json\r")
    term.expect(r"closet> ")
    term.type("count styles\r")
    term.expect(r'\{"count":0\}')
    term.close()

    def survives_restart():
        assert os.path.exists(os.path.join(state, "closet", "history")), "no history file"
        again = Terminal(args, env)
        again.expect(r"closet> ")
        again.type(".mode json\r")
        again.expect(r"closet> ")
        again.type("\x1b[A\x1b[A\r")  # up twice: past '.mode json' to 'count styles'
        again.expect(r'\{"count":0\}')
        again.close()
    check("history survives a restart", survives_restart)

    def up_searches_by_prefix():
        again = Terminal(args, env)
        again.expect(r"closet> ")
        again.type(".mode json\r")
        again.expect(r"closet> ")
        # Up with text typed recalls the last line that starts with it (zsh, fish), passing
        # '.mode json' by; Ctrl-P still walks every line.
        again.type("count\x1b[A\r")
        again.expect(r'\{"count":0\}')
        again.close()
    check("Up recalls the last line starting with what is typed (issue 45: 4)", up_searches_by_prefix)

    path = os.path.join(state, "closet", "history")

    def continued_statement_is_one_entry():
        term = Terminal(args, env)
        term.expect(r"closet> ")
        term.type(".mode json\r")
        term.expect(r"closet> ")
        term.type("count clothes \\\r")
        term.expect(r"\.\.\.> ")
        term.type("season=fall\r")
        term.expect(r'\{"count":0\}[\s\S]*closet> ')
        term.type("count clothes \\\r")
        term.expect(r"\.\.\.> ")
        term.type("\x03")  # abandoned: never an entry
        term.expect(r"closet> ")
        term.type("\x1b[A\r")  # one Up: the whole continued statement, on one line
        term.expect(r'\{"count":0\}[\s\S]*closet> ')
        term.close()
        text = open(path, encoding="utf-8", errors="replace").read()
        assert "count\\040clothes\\040season=fall" in text, text
        assert "\\134" not in text, text  # no backslash of a continuation was kept
    check("a continued statement is one history entry; an abandoned one is none (issue 10: 12)",
          continued_statement_is_one_entry)

    def two_terminals_keep_both_lines():
        first, second = Terminal(args, env), Terminal(args, env)
        first.expect(r"closet> ")
        second.expect(r"closet> ")
        first.type("count clothes season=fall\r")
        first.expect(r"closet> ")
        second.type("count clothes season=winter\r")
        second.expect(r"closet> ")
        first.close()
        second.close()
        text = open(path, encoding="utf-8", errors="replace").read()
        for line in ("season=fall", "season=winter", "count\\040styles"):
            assert line in text, f"{line!r} missing from the history file: {text!r}"
    check("two terminals never overwrite each other's history (issue 10: 1)", two_terminals_keep_both_lines)

    def a_closed_terminal_leaves_the_history_whole():
        before = open(path, "rb").read()
        term = Terminal(args, env)
        term.expect(r"closet> ")
        term.type("count clothes season=spring\r")
        term.expect(r"closet> ")
        # The terminal window closed: the pty goes away and the process gets SIGHUP (which a
        # test runner may have set to be ignored; the gone terminal ends it then).
        os.close(term.fd)
        os.kill(term.pid, 1)
        for _ in range(100):
            if os.waitpid(term.pid, os.WNOHANG)[0]:
                break
            time.sleep(0.05)
        else:
            os.kill(term.pid, 9)
            os.waitpid(term.pid, 0)
            raise AssertionError("closet did not end when its terminal went away")
        after = open(path, "rb").read()
        assert len(after) >= len(before) and b"season=spring" in after, f"history now {after!r}"
    check("a closed terminal (SIGHUP) leaves the history whole (issue 10: 1)", a_closed_terminal_leaves_the_history_whole)


def search_checks():
    """Ctrl-R, the incremental history search (issue 10: 2, 3)."""
    term = Terminal(args, env)
    term.expect(r"closet> ")
    term.type(".mode json\r")
    term.expect(r"closet> ")
    term.type('add clothes category=top season=fall description="navy knit"\r')
    term.expect(r'"navy knit"[\s\S]*closet> ')

    def ctrl_c_in_search_keeps_the_session():
        term.type("\x12cou")
        term.read(0.3)
        term.type("\x03")
        term.read(0.3)
        term.type("count clothes\r")
        # Still running, still in JSON mode: nothing of the session was lost.
        term.expect(r'\{"count":1\}')
    check("Ctrl-C during Ctrl-R abandons the search, not the session (issue 10: 2)", ctrl_c_in_search_keeps_the_session)

    for name, key in (("Left", "\x1b[D"), ("Right", "\x1b[C"), ("End", "\x1b[4~"), ("Home", "\x1b[H")):
        def arrow_ends_the_search(key=key):
            term.type("\x12navy")
            term.read(0.3)
            term.type(key)
            term.read(0.2)
            term.type("\r")
            term.expect(r"closet> ")
            term.type("list clothes\r")
            text = term.expect(r"\][\s\S]*closet> ")
            assert "[D" not in text and "[C" not in text and "[4~" not in text and "[H" not in text, text
            assert text.count('"navy knit"') >= 2, text
        check(f"{name} during Ctrl-R ends the search and moves, never inserts its escape text (issue 10: 3)",
              arrow_ends_the_search)

    def arrows_still_edit():
        term.type("count clothes season=wXnter")
        term.type("\x1b[D" * 5)  # Left five times: before the X
        term.type("\x1b[3~i")  # Delete it, type the i
        term.type("\r")
        term.expect(r'\{"count":0\}')
    check("Left and Delete still edit the line", arrows_still_edit)

    code = term.close()
    check("closet still quits with Ctrl-D after searching", lambda: None if code == 0 else (_ for _ in ()).throw(AssertionError(f"exit {code}")))


def width_checks():
    """Issue 10 (4, 5): what a terminal of a given width shows."""
    long = "a long long description of a very warm navy wool knit sweater for cold days"
    statements = [
        f'add clothes category=top season=fall description="{long}"',
        'add clothes category=bottom season=fall description="jeans"',
        'add clothes category=shoes season=fall description="boots"',
        'add clothes category=accessory season=fall description="a scarf"',
        'add style name="가을용 옷 with a rather long name" top=@1 bottom=@2 shoes=@3 accessory=@4',
    ]

    def at(columns):
        term = Terminal(args, env, columns=columns)
        term.expect(r"closet> ")
        term.type("list clothes\r")  # nothing yet: @N below are set by the lists
        term.expect(r"closet> ")
        for statement in statements[:4]:
            term.type(statement + "\r")
            term.expect(r"closet> ")
        term.type("list clothes sort=old\r")
        term.expect(r"closet> ")
        term.type(statements[4] + "\r")
        term.expect(r"closet> ")
        term.type("list styles\r")
        term.expect(r"\(1 row\)\r?\n[\s\S]*closet> ")
        term.type("show style @1\r")
        shown = strip(term.expect(r"created[\s\S]*closet> "))
        term.type("list clothes\r")
        text = shown + strip(term.expect(r"\(4 rows\)\r?\n[\s\S]*closet> "))
        term.close()
        return text

    def show_is_never_cut():
        text = at(120)
        shown = text.split("show style @1")[1].split("list clothes")[0]
        assert "a scarf" in shown and "boots" in shown and "accessory" in shown and "…" not in shown, shown
        assert all(len(line) <= 120 for line in shown.split("\n")), shown
    check("show at 120 columns shows every field whole, a field per line (issue 10: 4)", show_is_never_cut)

    def narrow_listing_goes_vertical():
        text = at(40)
        listing = text.split("closet> list clothes\n")[-1]
        assert "┌" not in listing and "…" not in listing, listing
        assert re.search(r"^description  a long long description", listing, re.M), listing
        assert all(len(line) <= 40 for line in listing.split("\n")), listing
    check("a listing too wide for 40 columns is shown a field per line, never wrapped mid-row (issue 10: 5)",
          narrow_listing_goes_vertical)

    def medium_listing_shrinks():
        text = at(80)
        listing = text.split("closet> list clothes\n")[-1]
        rows = [line for line in listing.split("\n") if line.startswith("│")]
        assert rows and all(len(line) <= 80 for line in rows), listing
        assert "…" in listing and re.search(r"[0-9A-F]{8} ", listing) and "2024-01-01T00:00:00Z" in listing, listing
    check("at 80 columns a listing shrinks its widest column and keeps ids and times whole (issue 10: 5)",
          medium_listing_shrinks)


def wide_character_checks():
    """Issue 10 (14): inserting before Hangul keeps the cursor on the right cell."""
    term = Terminal(args, env, columns=80)
    term.expect(r"closet> ")
    screen = Screen()
    screen.feed("closet> ")

    def step(keys):
        term.buffer = b""
        term.type(keys)
        term.read(0.4)
        screen.feed(term.buffer.decode("utf-8", "replace"))

    def cursor_follows_insertions():
        step("한글테스트")
        step("\x1b[D" * 3)  # Left three times: before 테
        assert screen.column == len("closet> ") + 4, screen.column
        step("X")
        assert screen.line == "closet> 한글X테스트", screen.line
        assert screen.column == len("closet> ") + 5, f"cursor at {screen.column}, after X is {len('closet> ') + 5}"
        step("Y")
        assert screen.line == "closet> 한글XY테스트", screen.line
        assert screen.column == len("closet> ") + 6, f"cursor at {screen.column}"
    check("inserting before Hangul leaves the cursor after the inserted character (issue 10: 14)",
          cursor_follows_insertions)
    term.type("\x03")
    term.close()


def outside_prompt_checks():
    """Issue 25 (3): output going to a terminal is fitted as at the prompt, from -c and run too."""
    long = "a long long description of a very warm navy wool knit sweater for cold days"
    term = Terminal(["--store", ":memory:", "-c", f'add clothes category=top season=fall description="{long}"',
                     "-c", "list clothes"], env, columns=40)
    text = strip(term.expect(r"\(1 row\)"))
    term.close()

    def fitted():
        lines = [line for line in text.splitlines() if line.strip()]
        assert all(len(line) <= 40 for line in lines), text
        assert re.search(r"^description +a long long", text, re.M), text
    check("-c at a 40-column terminal gets output fitted as at the prompt (never wrapped mid-row)", fitted)

    def listings_fit_80_columns():
        here = os.path.dirname(os.path.abspath(__file__))
        recordings = os.path.join(here, "..", "Golden", "boxoffice", "http")
        knit = os.path.join(here, "..", "Golden", "images", "fixtures", "knit.png")
        term = Terminal(args + ["--replay", recordings], env, columns=80)
        term.expect(r"closet> ")
        term.type(".clock set 2012-01-02\r")
        term.expect(r"closet> ")
        term.type("list boxoffice\r")
        ranking = strip(term.expect(r"\(10 rows\)[\s\S]*closet> "))
        assert "┌" in ranking and "미션임파서블:고스트프로토콜" in ranking, ranking
        assert all(len(line) <= 80 for line in ranking.splitlines()), ranking
        for n in range(20):
            term.type(f"add product title=p{n} price=1000 currency=KRW stock={n} description=d image={knit} password=p\r")
            term.expect(r"closet> ", timeout=10)
        term.type("list products\r")
        products = strip(term.expect(r"\(20 rows\)[\s\S]*closet> ", timeout=10))
        assert "┌" in products and len(products.splitlines()) < 30, products
        term.close()
    check("at 80 columns the box office and 20 products are tables, titles whole (issue 25: 7)", listings_fit_80_columns)

    def read_at_the_prompt_takes_paths_from_the_file():
        nested = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Golden", "scripts", "nested-read.closet")
        term = Terminal(args + ["--format", "json"], env)
        term.expect(r"closet> ")
        term.type(f".read {nested}\r")
        text = term.expect(r"closet> ", timeout=10)
        assert "cannot read" not in text, repr(text)
        term.type("count clothes\r")
        term.expect(r'\{"count":3\}')
        term.close()
    check(".read at the prompt takes the paths in the file (and in a file it reads) from their folders",
          read_at_the_prompt_takes_paths_from_the_file)

    def ctrl_d_mid_statement():
        term = Terminal(args, env)
        term.expect(r"closet> ")
        term.type("list clothes \\\r")
        term.expect(r"\.\.\.> ")
        term.type("\x04")
        text = term.expect(r"not finished")
        assert "did not run" in text, repr(text)
        term.close()
    check("Ctrl-D on a continuation line says the statement was not finished (issue 25: 8)", ctrl_d_mid_statement)


def output_checks():
    """Issue 10 (18): a pager for output taller than the terminal; Ctrl-C stops a long listing."""
    paged_env = dict(env, PAGER="sed s/^/PAGED:/")
    term = Terminal(args, paged_env, columns=120)
    term.expect(r"closet> ")
    script = adds("thirty.closet", 30, "top", "summer", "shirt")
    term.type(f".read {script}\r")
    term.expect(r"closet> ")

    def pages_tall_output():
        term.type("list clothes\r")
        text = term.expect(r"\(30 rows\)[\s\S]*closet> ")
        assert re.search(r"PAGED:│ +1 │", text), text
        term.type("count clothes\r")
        text = term.expect(r"closet> ")
        assert "PAGED" not in text, text  # short output is written straight
    check("output taller than the terminal goes through $PAGER", pages_tall_output)

    def pager_off():
        term.type(".pager off\r")
        term.expect(r"closet> ")
        term.type(".pager\r")
        term.expect(r"\boff\r?\n")
        term.type("list clothes\r")
        text = term.expect(r"\(30 rows\)[\s\S]*closet> ")
        assert "PAGED" not in text, text
    check(".pager off writes straight; .pager alone prints the setting", pager_off)

    def ctrl_c_stops_a_long_listing():
        bulk = adds("bulk.closet", 30000, "bottom", "winter", "bulk")
        term.type(f".read {bulk}\r")
        term.expect(r"closet> ", timeout=60)
        term.buffer = b""
        term.type("list clothes\r")
        time.sleep(0.3)
        term.type("\x03")
        # Ctrl-C while the rows are written, or before (while they are prepared): either way
        # the session goes on.
        text = term.expect(r"interrupted: the (rest of the )?output was dropped[\s\S]*closet> ", timeout=30)
        assert "(30030 rows)" not in text, text[-300:]
        term.type(".mode json\r")
        term.expect(r"closet> ")
        term.type("count clothes\r")
        # JSON at a terminal is indented for people (issue 45).
        term.expect(r'"count": 30030')
    check("Ctrl-C stops a long listing; the session goes on (issue 10: 18)", ctrl_c_stops_a_long_listing)
    term.close()

    # A pager command the shell cannot run shows nothing: the output is written straight.
    missing = Terminal(args, dict(env, PAGER="no-such-pager-anywhere"), columns=120)
    missing.expect(r"closet> ")
    missing.type(f".read {script}\r")
    missing.expect(r"closet> ")

    def a_missing_pager_loses_nothing():
        missing.type("list clothes\r")
        text = missing.expect(r"\(30 rows\)[\s\S]*closet> ")
        assert re.search(r"│ +30 │", text), text[-300:]
    check("a $PAGER that cannot run leaves the output written straight (issue 22: 3)", a_missing_pager_loses_nothing)
    missing.close()


def job_control_checks():
    """Issue 10 (20): Ctrl-Z and fg under a shell with job control redraw the prompt and the
    half-typed line; Ctrl-D quits without writing a literal ^D."""
    shell_env = dict(env, PS1="$ ")
    pid, fd = pty.fork()
    if pid == 0:
        # A test runner may ignore the job-control signals, and a shell keeps for its children
        # what was ignored when it started: give them their defaults back.
        for number in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGCONT, signal.SIGINT, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])  # nor blocked, as a runner's threads may have them
        os.execve("/bin/bash", ["bash", "--norc", "--noprofile", "-i"], shell_env)
    term = Terminal.__new__(Terminal)
    term.pid, term.fd, term.buffer = pid, fd, b""
    term.expect(r"\$ ")
    term.type(f"{CLOSET} {' '.join(args)}\r")
    term.expect(r"closet> ")

    def redrawn_after_fg():
        term.type("count clo")
        term.expect(r"count clo")
        term.type("\x1a")
        term.expect(r"Stopped[\s\S]*\$ ")
        term.type("fg\r")
        term.expect(r"closet> count clo")
        term.type("thes\r")
        term.expect(r"count[\s\S]*0[\s\S]*closet> ")
    check("fg after Ctrl-Z redraws the prompt and the half-typed line (issue 10: 20)", redrawn_after_fg)

    def ctrl_d_deletes_then_quits():
        term.type("xcount styles\x01\x04\r")  # Ctrl-A, Ctrl-D: the x under the cursor goes
        term.expect(r"count[\s\S]*0[\s\S]*closet> ")
        term.type("\x04")
        text = term.expect(r"\$ ")
        assert "^D" not in text, text
    check("Ctrl-D deletes under the cursor, and quits an empty line without a literal ^D (issue 10: 20)",
          ctrl_d_deletes_then_quits)
    term.type("exit\r")
    for _ in range(50):
        if os.waitpid(pid, os.WNOHANG)[0]:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


class LoopbackMarket:
    """An open-market server on 127.0.0.1 answering `GET /items/1` with one product; while
    `slow` is set it waits 20 s first, so a request can be interrupted while it runs."""

    def __init__(self):
        import http.server, threading
        market = self
        self.slow = False
        self.requests = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                market.requests += 1
                if market.slow:
                    time.sleep(20)
                body = (b'{"page":1,"items":[{"id":7,"title":"Loopback lamp","price":100,"currency":"KRW",'
                        b'"stock":3,"thumbnails":[],"registration_date":1600000000.0}]}')
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()


def helpers(parent):
    """The pids of the network helpers `parent` started (its children named closet-http)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/comm") as f:
                name = f.read().strip()
        except OSError:
            continue
        if int(fields[1]) == parent and name.startswith("closet-http") and fields[0] != "Z":
            found.add(int(entry))
    return found


def live_request_checks():
    """Issue 45 (1): the network helper is in a process group of its own, so Ctrl-C at an idle
    prompt leaves it alone, and Ctrl-C during a request cancels that request only; the next live
    request is answered either way (against a loopback market)."""
    market = LoopbackMarket()
    term = Terminal(args, dict(env, CLOSET_MARKET_URL=market.url), columns=100)
    term.expect(r"closet> ")

    def answered():
        term.type("list products\r")
        text = term.expect(r"closet> ", timeout=10)
        assert "Loopback lamp" in text and "error" not in text, repr(text)

    check("a live request is answered through the helper", answered)

    def idle_ctrl_c_keeps_the_helper():
        helper = helpers(term.pid)
        assert len(helper) == 1, helper
        term.type("list prod")
        term.read(0.3)
        term.type("\x03")
        term.expect(r"closet> ")
        time.sleep(0.3)
        assert helpers(term.pid) == helper, f"the helper {helper} did not survive: {helpers(term.pid)}"
        before = market.requests
        answered()
        assert market.requests == before + 1, (before, market.requests)
    check("Ctrl-C at an idle prompt leaves the helper alone: the next live request is answered (issue 45: 1)",
          idle_ctrl_c_keeps_the_helper)

    def running_ctrl_c_cancels_that_request():
        market.slow = True
        before = market.requests
        term.type("list products\r")
        end = time.time() + 5
        while market.requests == before and time.time() < end:
            time.sleep(0.05)
        assert market.requests == before + 1, "the slow request never reached the server"
        time.sleep(0.3)
        started = time.time()
        term.type("\x03")
        text = term.expect(r"closet> ", timeout=5)
        took = time.time() - started
        assert "cancelled" in text and took < 3, (took, repr(text))
        market.slow = False
        answered()
    check("Ctrl-C during a live request cancels it at once, and the next one is answered (issue 45: 1)",
          running_ctrl_c_cancels_that_request)
    term.close()
    market.stop()


def vi_mode_checks():
    """Arrows, Delete and Ctrl-D still edit after ~/.editrc switches to vi keys."""
    editrc = os.path.join(state, "vi.editrc")
    with open(editrc, "w") as f:
        f.write("bind -v\n")
    term = Terminal(args, dict(env, EDITRC=editrc))
    term.expect(r"closet> ")
    term.type(".mode json\r")
    term.expect(r"closet> ")

    def arrows_in_vi_mode():
        term.type("count clothes season=wXnter")
        term.type("\x1b[D" * 5)
        term.type("\x1b[3~i\r")
        term.expect(r'\{"count":0\}')
    check("arrows and Delete edit in vi mode too (bind -v in ~/.editrc)", arrows_in_vi_mode)
    code = term.close()
    check("Ctrl-D quits in vi mode", lambda: None if code == 0 else (_ for _ in ()).throw(AssertionError(f"exit {code}")))


def password_checks():
    """password=? and a left-out password are asked for with echo off; the typed password never
    reaches the screen."""
    knit = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Golden", "images", "fixtures", "knit.png")
    term = Terminal(args, env)
    term.expect(r"closet> ")
    term.type(f'add product title=x price=10 currency=KRW stock=1 description=d image={knit} password=?\r')

    def asks_without_echo():
        term.expect(r"password: ")
        term.type("hunter2\r")
        text = term.expect(r"closet> ")
        assert "hunter2" not in text, repr(text)
        assert "수량 : 1" in text, repr(text)
    check("password=? asks at the terminal and does not echo", asks_without_echo)

    def remove_answering(password):
        term.type("remove product 1\r")
        term.expect(r"password: ")
        term.type(password + "\r")
        term.expect(r"remove product 1 'x'\? \[y/N\] ")
        term.type("y\r")
        return term.expect(r"closet> ")

    def asks_when_left_out():
        term.type("remove product 1\r")
        term.expect(r"password: ")
        term.type("wrong-one\r")
        term.expect(r"remove product 1 'x'\? \[y/N\] ")
        term.type("y\r")
        # The app says why and asks once more; a second wrong one is the error.
        term.expect(r"wrong password\r?\npassword: ")
        term.type("wrong-two\r")
        text = term.expect(r"closet> ")
        assert "wrong password" in text and "wrong-one" not in text and "wrong-two" not in text, repr(text)
        text = remove_answering("hunter2")
        assert "removed" in text and "hunter2" not in text, repr(text)
    check("a left-out password is asked for, checked, and asked again once when wrong", asks_when_left_out)

    def remove_asks_first():
        term.type(f'add product title=y price=10 currency=KRW stock=1 description=d image={knit} password=p\r')
        term.expect(r"closet> ")
        term.type("remove product 2 password=p\r")
        term.expect(r"remove product 2 'y'\? \[y/N\] ")
        term.type("n\r")
        text = term.expect(r"closet> ")
        assert "was not confirmed: nothing was removed" in text, repr(text)
        term.type(".lang ko\r")
        term.expect(r"closet> ")
        term.type("remove product 2 password=p\r")
        term.expect(r"정말 삭제하시겠습니까\? \(상품 2 'y'\) \[y/N\] ")
        term.type("\r")
        text = term.expect(r"closet> ")
        assert "삭제하지 않았습니다: 'remove product'" in text and "^" not in text, repr(text)
        term.type(".confirm off\r")
        term.expect(r"closet> ")
        term.type("remove product 2 password=p\r")
        text = term.expect(r"closet> ")
        assert "removed" in text and "[y/N]" not in text, repr(text)
    check("remove at the prompt asks first, in the session's language; .confirm off does not", remove_asks_first)

    def asks_in_korean():
        # Still under .lang ko and .confirm off: the delete screen's prompt, its second chance, its answer.
        term.type(f'add product title=z price=10 currency=KRW stock=1 description=d image={knit} password=p\r')
        term.expect(r"closet> ")
        term.type("remove product 3\r")
        term.expect(r"비밀번호 입력: 등록자 인증을 위한 비밀번호가 필요합니다\r?\n비밀번호: ")
        term.type("q\r")
        term.expect(r"비밀번호 오류: 올바른 비밀번호가 아닙니다\r?\n비밀번호 입력: 등록자 인증을 위한 비밀번호가 필요합니다\r?\n비밀번호: ")
        term.type("p\r")
        text = term.expect(r"closet> ")
        assert "삭제 되었습니다: 해당 아이템이 삭제 되었습니다" in text, repr(text)
    check("under .lang ko the market's delete asks as the app does, and again once when wrong", asks_in_korean)
    term.close()


def readme_checks():
    def readme_session_is_what_closet_shows():
        recorded = readme_session.record(CLOSET)
        text, start, end = readme_session.readme_block()
        assert text[start:end] == recorded, "the README's session differs from a recording " \
            "(Tests/Terminal/readme_session.py <closet> shows how, --write records it):\n" + recorded
    check("the README's session is what closet shows at a terminal (issue 45)", readme_session_is_what_closet_shows)


session_checks()
readme_checks()
live_request_checks()
password_checks()
vi_mode_checks()
job_control_checks()
output_checks()
outside_prompt_checks()
wide_character_checks()
width_checks()
search_checks()
history_checks()
print(f"{len(PASSED)} passed, {len(FAILED)} failed")
sys.exit(1 if FAILED else 0)
