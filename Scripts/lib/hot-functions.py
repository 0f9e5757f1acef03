#!/usr/bin/env python3
"""Writes Scripts/lib/hot-functions.order: the functions a statement runs, then the data it
touches, for the linker to lay out side by side (`Scripts/lib/build-release` passes it to lld as
--symbol-ordering-file, with every Swift function and global compiled into a section of its own
so that each can be placed).

A statement runs about 1,600 functions (0.5 MB of code) scattered over the static executable's
20 MB of text; the kernel maps the page-cache folios around each one, so a statement held ~10 MB of
the binary resident and paid a page fault for each of ~170 places. Laid out together they take a
few hundred KiB. The list comes from callgrind runs of every pack's usual statements, each in a
new process, over stores seeded here; a function missing from it (renamed since) is only laid out
elsewhere, never an error. Run again after large changes:

    python3 Scripts/lib/hot-functions.py "$(Scripts/lib/build-release)"
"""
import bisect
import collections
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
work = tempfile.mkdtemp(prefix="closet-hot-")
# A copy without debug information (valgrind 3.19 cannot read lld's), symbols kept.
closet = os.path.join(work, "closet")
shutil.copy(sys.argv[1], closet)
subprocess.run(["strip", "--strip-debug", closet], check=True)
PICTURE = os.path.join(root, "Examples/pictures/kong.png")
HASH = "pbkdf2-sha256$10000$" + "0a" * 16 + "$" + "ab" * 32
CATEGORIES = ["outer", "top", "bottom", "shoes", "accessory"]
SEASONS = ["spring", "summer", "fall", "winter", "all"]


def seed(name, lines):
    """A store of `name` holding the lines' rows in its snapshot (a first commit of 1,024 changes
    or more is written as the snapshot), as the benchmarks' stores are."""
    script = os.path.join(work, name + ".closet")
    with open(script, "w") as file:
        file.write("\n".join(lines) + "\n")
    store = os.path.join(work, name)
    subprocess.run([closet, "--store", store, "run", script], stdout=subprocess.DEVNULL, check=True)
    return store, script


clothes, clothes_script = seed("clothes", [
    f'add clothes category={CATEGORIES[i % 5]} season={SEASONS[i // 5 % 5]} description="knit {i}" '
    f"created=2024-01-{1 + i % 28:02d}T00:00:00Z" for i in range(3_000)])
market, _ = seed("market", [
    f'add product id={i} title="wool {i}" price={1000 + i} currency=KRW stock={i % 50} description="wool" '
    f'image={PICTURE} registered=2024-01-01T00:00:00Z hash="{HASH}"' for i in range(1, 1_501)])
community, _ = seed("community", [
    f'add story id={i} title="walk {i}" content="walk" author=user{i % 40} created=2024-01-01T00:00:00Z'
    for i in range(1, 1_501)] + [f"like story {1 + i % 1_500} user=user{i % 40}" for i in range(600)] + [
    f'add comment story={1 + i % 1_500} text="good {i}" author=user{i % 40} created=2024-01-01T00:00:00Z'
    for i in range(600)])
# A store as one in use looks: its snapshot, the level below it (`DeltaFile`) that compactions of
# small commits write, and a journal of the commits since. Opening it reads code no compacted
# store runs (the level's sections, the journal's records, their keys looked up).
small_commits, _ = seed("small-commits", [
    f'add clothes category={CATEGORIES[i % 5]} season={SEASONS[i // 5 % 5]} description="knit {i}" '
    f"created=2024-01-{1 + i % 28:02d}T00:00:00Z" for i in range(4_500)])
with open(os.path.join(work, "small.closet"), "w") as file:
    file.writelines(f'add clothes category=top season=fall description="small {i}"\n' for i in range(300))
with open(os.path.join(work, "small.closet")) as file:
    subprocess.run([closet, "--store", small_commits], stdin=file, stdout=subprocess.DEVNULL, check=True)
runs = [
    [":memory:", "count clothes"],
    [":memory:", ".help"],
    [clothes, "count clothes season=fall"],
    [clothes, "list clothes season=fall sort=new limit=20"],
    [clothes, "list clothes limit=5", "show clothes @1"],
    [clothes, 'add clothes category=top season=fall description="one more"'],
    [market, "list products"],
    [market, "list products page=50"],
    [market, "show product 700"],
    [market, f'add product title="linen" description="linen" price=1000 currency=KRW stock=3 image={PICTURE} password=1234'],
    [community, "list stories limit=20"],
    [community, "show story 5"],
    [community, "show profile user=user7"],
    [community, "like story 3 user=user1"],
    [small_commits, "count clothes"],
    [small_commits, "list clothes season=fall sort=new limit=20"],
    [small_commits, 'add clothes category=top season=fall description="one more"'],
]
costs = collections.Counter()
runs_of = collections.Counter()
for number, (store, *statements) in enumerate(runs + [[None]]):
    output = os.path.join(work, f"callgrind.{number}")
    if store is None:  # a seeding run: a new store from a script of simple statements
        argv = [closet, "--store", os.path.join(work, "seeded"), "run", clothes_script]
    else:
        argv = [closet, "--store", store, "--format", "json" if number % 2 else "table"]
        for statement in statements:
            argv += ["-c", statement]
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--compress-strings=no",
                    "--callgrind-out-file=" + output] + argv,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    # Each function's own instructions: a cost line after `calls=` is the callee's, left out.
    function, call = None, False
    seen = set()
    for line in open(output, errors="replace"):
        if line.startswith("fn="):
            function = line[3:].strip()
        elif line.startswith("calls="):
            call = True
        elif function and re.match(r"^[+-]?\d", line):
            parts = line.split()
            if not call and len(parts) >= 2:
                costs[function] += int(parts[1])
                seen.add(function)
            call = False
    runs_of.update(seen)
# Swift and C symbols only (a name callgrind made up for code without one is left out): first
# those every statement runs (start-up), then those fewer runs share, each group busiest first.
# Costs are compared in quarter-octave steps, then names: a few instructions more or less from one
# making to the next (random ids, hashing seeds) no longer reorder functions of like cost, so two
# layouts made from the same code are the same and figures at a margin compare across makings.
def cost_step(name):
    return int(math.log2(costs[name] + 1) * 4)


names = sorted((name for name in costs if not name.startswith("0x")),
               key=lambda name: (-runs_of[name], -cost_step(name), name))

# The writable data the same statements touch (globals, their once-tokens, class metadata the
# runtime fills in), laid out together after the functions: each page of `.bss` a process touches
# is a page fault of its own, and a written page of `.data` a copy. Spread over the executable, a
# new process touched 52 pages of `.bss` and 93 of `.data` for a few hundred symbols; together,
# a top-20's 295 page faults became 204. Found with valgrind's lackey (every load and store),
# mapped to the symbols of `nm`; ordered like the functions, by how many runs touch them.
data_symbols = []
for line in subprocess.run(["nm", "-n", "-S", closet], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) >= 4 and parts[2] in "bBdD":
        data_symbols.append((int(parts[0], 16), max(1, int(parts[1], 16)), parts[3]))
data_starts = [start for start, _, _ in data_symbols]
data_runs = collections.Counter()
data_first = {}
for number, (store, *statements) in enumerate(runs):
    if any("image=" in statement for statement in statements):
        continue  # a picture's codecs run billions of loads; the start-up they share is traced elsewhere
    argv = [closet, "--store", store, "--format", "json" if number % 2 else "table"]
    for statement in statements:
        argv += ["-c", statement]
    # The trace read as it is made (through a pipe, never a file: it is gigabytes), the first
    # 30 million accesses at most (start-up and the statement's own, in every run here).
    reading, writing = os.pipe()
    process = subprocess.Popen(["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-fd={writing}"] + argv,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(writing,))
    os.close(writing)
    touched = set()
    with os.fdopen(reading, errors="replace") as trace:
        for count, line in enumerate(trace):
            if count > 30_000_000:
                process.kill()
                break
            # ` L addr,size`, ` S addr,size`, ` M addr,size` (instructions start with `I`).
            if len(line) < 4 or line[0] != " " or line[1] not in "LSM":
                continue
            address = int(line[3:line.index(",")], 16)
            at = bisect.bisect_right(data_starts, address) - 1
            if at >= 0 and address < data_symbols[at][0] + data_symbols[at][1]:
                touched.add(data_symbols[at][2])
    process.wait()
    for name in touched:
        data_first.setdefault(name, number)
    data_runs.update(touched)
data_names = sorted(data_runs, key=lambda name: (-data_runs[name], data_first[name], name))
with open(os.path.join(root, "Scripts/lib/hot-functions.order"), "w") as file:
    file.writelines(f"{name}\n" for name in names + data_names)
print(f"hot-functions: {len(names)} functions and {len(data_names)} data symbols from {len(runs) + 1} runs",
      file=sys.stderr)
shutil.rmtree(work, ignore_errors=True)
