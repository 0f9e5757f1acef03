"""What the terminal tests share: a program in a pty, and just enough of a screen."""
import fcntl, os, pty, re, select, struct, termios, time, unicodedata


class Terminal:
    """closet (or any program) in a pseudo-terminal, `columns` wide."""

    def __init__(self, program, args, env, columns=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            # The size is set before the program starts, so one that asks at once (-c) sees it.
            if columns:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
            os.execve(program, [program] + args, env)
        if columns:
            fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        self.buffer = b""

    def read(self, timeout=0.2):
        end = time.time() + timeout
        while time.time() < end:
            ready, _, _ = select.select([self.fd], [], [], max(0, end - time.time()))
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.buffer += data

    def expect(self, pattern, timeout=5.0):
        """Waits until the output since the last expect matches; returns the text."""
        end = time.time() + timeout
        while time.time() < end:
            text = self.buffer.decode("utf-8", "replace")
            if re.search(pattern, text):
                self.buffer = b""
                return text
            self.read(0.05)
        raise AssertionError(f"expected {pattern!r}, screen has {self.buffer.decode('utf-8', 'replace')!r}")

    def type(self, text):
        os.write(self.fd, text.encode("utf-8") if isinstance(text, str) else text)

    def close(self):
        try:
            os.write(self.fd, b"\x04")  # Ctrl-D on an empty line
        except OSError:
            pass
        for _ in range(50):
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        return None


class Screen:
    """Just enough of a terminal to follow one edited line: text by cell, the cursor, and the
    moves libedit sends (CR, BS, CHA, CUF, CUB, ICH, DCH, EL). Wide characters take two cells."""

    def __init__(self):
        self.cells, self.column = [], 0

    @staticmethod
    def width(character):
        return 2 if unicodedata.east_asian_width(character) in "WF" else 1

    def feed(self, text):
        index = 0
        while index < len(text):
            character = text[index]
            if character == "\x1b":
                match = re.match(r"\x1b\[([0-9;?]*)([A-Za-z@])", text[index:])
                if not match:
                    index += 1
                    continue
                number = int(match.group(1) or "1") if match.group(1).isdigit() else 1
                final = match.group(2)
                if final == "G":
                    self.column = number - 1
                elif final == "C":
                    self.column += number
                elif final == "D":
                    self.column = max(0, self.column - number)
                elif final == "K":
                    del self.cells[self.column:]
                elif final == "@":
                    self.cells[self.column:self.column] = [" "] * number
                elif final == "P":
                    del self.cells[self.column:self.column + number]
                index += match.end()
                continue
            if character == "\r":
                self.column = 0
            elif character == "\b":
                self.column = max(0, self.column - 1)
            elif character == "\n":
                self.cells, self.column = [], 0
            elif character >= " ":
                cells = [character] + [""] * (self.width(character) - 1)
                while len(self.cells) < self.column:
                    self.cells.append(" ")
                self.cells[self.column:self.column + len(cells)] = cells
                self.column += len(cells)
            index += 1

    @property
    def line(self):
        return "".join(self.cells).rstrip()
