#!/usr/bin/env python3
"""closet against sqlite3 on the same data. Generates the data itself (seeded), runs each
pair alternately (closet, sqlite3, closet, ...) after a warm-up, and prints one table of
median times, the ratio closet/sqlite3, and peak resident memory of the child processes."""
import os, random, resource, shutil, statistics, subprocess, sys, tempfile, time

CLOSET = sys.argv[1]
QUICK = "--quick" in sys.argv
RUNS = 2 if QUICK else 5
SIZE = 2_000 if QUICK else 100_000
P5_SIZES = [1_000, 2_000] if QUICK else [10_000, 100_000, 1_000_000]
work = tempfile.mkdtemp(prefix="closet-bench-")

CATEGORIES = ["outer", "top", "bottom", "shoes", "accessory"]
SEASONS = ["all", "spring", "summer", "fall", "winter"]
WORDS = ["navy", "wool", "linen", "black", "white", "slim", "oversized", "knit", "denim", "cotton",
         "니트", "청바지", "코트", "셔츠", "가디건", "반바지", "기모", "린넨", "검정", "하늘색"]


def generate(count, seed=42):
    """The same rows as closet statements and as SQL; dates spread over three years."""
    rng = random.Random(seed)
    closet_lines, sql_lines = [], ["BEGIN;", "CREATE TABLE clothes(id TEXT PRIMARY KEY, created_at TEXT, category TEXT, season TEXT, description TEXT);"]
    start = 1_640_995_200  # 2022-01-01
    for i in range(count):
        category, season = rng.choice(CATEGORIES), rng.choice(SEASONS)
        description = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + rng.randrange(3 * 365 * 86400)))
        uid = "%08X-%04X-4%03X-%04X-%012X" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                             0x8000 | rng.getrandbits(14), rng.getrandbits(48))
        closet_lines.append(f'add clothes category={category} season={season} description="{description}" created={created}')
        sql_lines.append(f"INSERT INTO clothes VALUES('{uid}','{created}','{category}','{season}','{description}');")
    sql_lines.append("COMMIT;")
    return "\n".join(closet_lines) + "\n", "\n".join(sql_lines) + "\n"


PEAK = os.path.join(work, "peak")
subprocess.run(["cc", "-O2", "-o", PEAK, os.path.join(os.path.dirname(__file__), "peak.c")], check=True)


def run(argv, stdin=None):
    """Runs a child through the peak helper; returns (seconds, peak RSS in KB of that child)."""
    report = os.path.join(work, "peak.txt")
    errors = os.path.join(work, "stderr.txt")
    with open(stdin or os.devnull, "rb") as source, open(errors, "wb") as err:
        subprocess.run([PEAK, report] + argv, stdin=source, stdout=subprocess.DEVNULL, stderr=err, check=True)
    seconds, rss, status = open(report).read().split()
    if int(status) != 0:
        raise SystemExit(f"failed ({status}): {' '.join(argv)}: {open(errors).read()}")
    return float(seconds), int(rss)


def alternate(closet, sqlite, runs=RUNS, prepare=None):
    """Warm-up, then closet and sqlite3 in turn; medians of time, max of memory."""
    results = {"closet": [], "sqlite3": []}
    memory = {"closet": 0, "sqlite3": 0}
    for round in range(runs + 1):
        for name, job in (("closet", closet), ("sqlite3", sqlite)):
            if prepare:
                prepare(name)
            seconds, rss = job()
            if round > 0:
                results[name].append(seconds)
                memory[name] = max(memory[name], rss)
    return statistics.median(results["closet"]), statistics.median(results["sqlite3"]), memory


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    if os.path.exists(path):
        os.remove(path)


rows = []
closet_seed, sql_seed = generate(SIZE)
seed_closet = os.path.join(work, "seed.closet")
seed_sql = os.path.join(work, "seed.sql")
open(seed_closet, "w").write(closet_seed)
open(seed_sql, "w").write(sql_seed)
del closet_seed, sql_seed
store = os.path.join(work, "store")
database = os.path.join(work, "clothes.db")

# P1: replay the seed into a new on-disk store, durable at the end.
c, s, mem = alternate(
    lambda: run([CLOSET, "--store", store, "run", seed_closet]),
    lambda: run(["sqlite3", database], stdin=seed_sql),
    prepare=lambda name: fresh(store if name == "closet" else database))
rows.append(("P1", f"replay {SIZE:,} statements into a new store", c, s, "≤ 0.5"))
# The same with closet's results written to a file (rendered), for honesty: above, results
# go to /dev/null and closet skips rendering them; sqlite3 prints nothing for INSERTs.
transcript = os.path.join(work, "transcript.txt")
def run_to_file():
    return run(["sh", "-c", f'exec "$0" --store "$1" run "$2" > "$3"', CLOSET, store, seed_closet, transcript])
c2, s2, _ = alternate(run_to_file, lambda: run(["sqlite3", database], stdin=seed_sql),
                      prepare=lambda name: fresh(store if name == "closet" else database))
rows.append(("P1b", f"the same, closet's {SIZE:,} result tables written to a file", c2, s2, "(info)"))
replay_memory = mem

# P2: a new process opens the store and answers a count and a page of a listing in JSON.
queries = "count clothes season=fall\nlist clothes season=fall sort=new limit=20\n"
queries_file = os.path.join(work, "queries.closet")
open(queries_file, "w").write(queries)
order = "CASE category WHEN 'outer' THEN 0 WHEN 'top' THEN 1 WHEN 'bottom' THEN 2 WHEN 'shoes' THEN 3 ELSE 4 END"
sql_queries = ("SELECT count(*) AS count FROM clothes WHERE season='fall';"
               f"SELECT * FROM clothes WHERE season='fall' ORDER BY {order}, created_at DESC LIMIT 20;")
c, s, mem = alternate(
    lambda: run([CLOSET, "--store", store, "--format", "json"], stdin=queries_file),
    lambda: run(["sqlite3", "-json", database, sql_queries]))
rows.append(("P2", f"new process: open {SIZE:,}, count + list season=fall (JSON)", c, s, "≤ 1.5"))
# P4 is the process that has the store open and answers (P2's); the replay's peak is shown too.
p4_closet = mem["closet"]
p4_sqlite = mem["sqlite3"]

# P3: a new process on an empty store runs one trivial statement.
empty = os.path.join(work, "empty")
run([CLOSET, "--store", empty, "-c", "count clothes"])
c, s, _ = alternate(
    lambda: run([CLOSET, "--store", empty, "-c", "count clothes"]),
    lambda: run(["sqlite3", ":memory:", "select 1"]), runs=max(RUNS, 10 if not QUICK else 2))
rows.append(("P3", "new process, empty store, one trivial statement", c, s, "≤ 4"))

# P5: open + filter + sort at growing sizes (closet only against its own growth, and sqlite3).
growth = []
for size in P5_SIZES:
    closet_text, sql_text = generate(size, seed=size)
    path_c, path_s = os.path.join(work, f"s{size}.closet"), os.path.join(work, f"s{size}.sql")
    open(path_c, "w").write(closet_text)
    open(path_s, "w").write(sql_text)
    del closet_text, sql_text
    store_n, db_n = os.path.join(work, f"store{size}"), os.path.join(work, f"db{size}.db")
    run([CLOSET, "--store", store_n, "run", path_c])
    run(["sqlite3", db_n], stdin=path_s)
    query = "list clothes season=fall sort=new limit=20"
    c, s, mem = alternate(
        lambda: run([CLOSET, "--store", store_n, "--format", "json", "-c", query]),
        lambda: run(["sqlite3", "-json", db_n, f"SELECT * FROM clothes WHERE season='fall' ORDER BY {order}, created_at DESC LIMIT 20;"]),
        runs=RUNS if size < 1_000_000 else 3)
    growth.append((size, c, s, mem["closet"]))
    os.remove(path_c)
    os.remove(path_s)

import platform
print(f"closet benchmarks, {'quick' if QUICK else 'full'} run, median of {RUNS} after a warm-up; "
      f"{platform.machine()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}")
print(f"{'id':<4} {'measure':<58} {'closet':>10} {'sqlite3':>10} {'ratio':>7}  target")
for id, what, c, s, target in rows:
    print(f"{id:<4} {what:<58} {c*1000:>8.1f}ms {s*1000:>8.1f}ms {c/s:>7.2f}  {target}")
print(f"{'P4':<4} {'peak resident memory, ' + format(SIZE, ',') + ' clothes open (P2)':<58} {p4_closet/1024:>8.1f}MB {p4_sqlite/1024:>8.1f}MB {p4_closet/p4_sqlite:>7.2f}  ≤ 100 MB")
print(f"{'':<4} {'peak resident memory during the replay (P1)':<58} {replay_memory['closet']/1024:>8.1f}MB {replay_memory['sqlite3']/1024:>8.1f}MB {replay_memory['closet']/replay_memory['sqlite3']:>7.2f}  (info)")
for size, c, s, rss in growth:
    print(f"{'P5':<4} {'open + filter + sort, ' + format(size, ',') + ' clothes':<58} {c*1000:>8.1f}ms {s*1000:>8.1f}ms {c/s:>7.2f}  ≤ 2 s at 1M ({rss/1024:.0f} MB)")
shutil.rmtree(work, ignore_errors=True)
