#!/usr/bin/env python3
"""closet's https path against hostile servers on 127.0.0.1 (issue 44): a TLS server with a
certificate this test makes, trusted by closet's process alone (FoundationNetworking on Linux reads
no CA variable, so the certificate is bind-mounted over the system bundle in a private mount
namespace: `unshare -m`, root only). A gzip bomb and an endless body must be given up within a few
seconds with the helper's memory bounded, and the next request answered. Usage:
hostile_tls_test.py <path-to-closet>"""
import gzip, http.server, io, os, resource, shutil, ssl, subprocess, sys, tempfile, threading, time

CLOSET = sys.argv[1]
PASSED, FAILED = [], []
folder = tempfile.mkdtemp(prefix="closet-tls-")
cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days",
                "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
               check=True, capture_output=True)

raw = io.BytesIO()
with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as bomb:
    zeros = b"\0" * (1 << 20)
    for _ in range(1024):  # 1 GiB of zeros, about 1 MB on the wire
        bomb.write(zeros)
BOMB = raw.getvalue()
ITEMS = b'{"page":1,"items":[{"id":7,"title":"TLS lamp","price":100,"currency":"KRW","stock":3,"thumbnails":[],"registration_date":1600000000.0}]}'


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        try:
            if self.path.startswith("/bomb/"):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(BOMB)))
                self.end_headers()
                self.wfile.write(BOMB)
            elif self.path.startswith("/endless/"):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"[" * 65536
                end = time.time() + 60
                while time.time() < end:
                    self.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            elif self.path.startswith("/huge/"):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(10 << 30))
                self.end_headers()
                self.wfile.write(b"[" * 65536)
            elif self.path.startswith("/silent/"):
                time.sleep(8)
            else:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(ITEMS)))
                self.end_headers()
                self.wfile.write(ITEMS)
        except OSError:
            pass

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"https://127.0.0.1:{server.server_address[1]}"

# Run in a child Python so its RUSAGE_CHILDREN is this run's alone (closet waits its helper).
MEASURE = ("import resource, subprocess, sys, time; start = time.time(); "
           "done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
           "print(round(time.time() - start, 2)); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
           "print(done.returncode); print(done.stdout + done.stderr)")


def run(path, statements, timeout=5):
    script = f"mount --bind {cert} /etc/ssl/certs/ca-certificates.crt && exec \"$0\" \"$@\""
    argv = ["unshare", "-m", "sh", "-c", script, CLOSET, "--store", ":memory:", "--timeout", str(timeout)]
    for statement in statements:
        argv += ["-c", statement]
    env = dict(os.environ, CLOSET_MARKET_URL=base + path, NO_COLOR="1")
    out = subprocess.run([sys.executable, "-c", MEASURE] + argv, capture_output=True, text=True, env=env).stdout
    seconds, peak_kb, status, text = out.split("\n", 3)
    return float(seconds), int(peak_kb) // 1024, int(status), text


def check(name, body):
    try:
        body()
        PASSED.append(name)
    except AssertionError as error:
        FAILED.append(name)
        print(f"FAIL {name}: {error}")


def answered():
    seconds, peak, status, text = run("/ok", ["list products"])
    assert status == 0 and "TLS lamp" in text, (status, text)
check("a plain https answer from the test's own server is read", answered)


def given_up(path, what):
    def body():
        seconds, peak, status, text = run(path, ["list products", "list products"])
        print(f"{what}: {seconds} s, helper peak {peak} MB")
        assert status == 1, (status, text)
        assert text.count("it was not read to its end") == 2, text
        assert seconds < 12, f"{seconds} s"
        assert peak < 400, f"{peak} MB"
    return body
check("a gzip bomb over https is given up within seconds, the helper under 400 MB, twice", given_up("/bomb", "bomb"))
check("an endless body over https is given up within seconds, the helper under 400 MB, twice",
      given_up("/endless", "endless"))


def huge_length():
    seconds, peak, status, text = run("/huge", ["list products"])
    assert status == 1 and "is larger than 32MB (--max-response)" in text and seconds < 5, (seconds, text)
check("a Content-Length past --max-response is refused before its body is read", huge_length)


def silent():
    seconds, peak, status, text = run("/silent", ["list products"], timeout=2)
    assert status == 1 and "no answer from" in text and "within 2 s" in text and seconds < 5, (seconds, text)
check("a TLS server that accepts and never answers is given up after --timeout", silent)
check("after them, the next https request is answered", answered)

server.shutdown()
shutil.rmtree(folder, ignore_errors=True)
print(f"{len(PASSED)} passed, {len(FAILED)} failed")
sys.exit(1 if FAILED else 0)
