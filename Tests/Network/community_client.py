"""A client of the 사랑할개 community API as the app drives it, for `closet serve adoption`.

    python3 community_client.py <host> <port> <fixtures folder> [routes|expiry|expire-every|hostile]
    python3 community_client.py <host> <port> <fixtures folder> post-until-stopped <name>

Signs up two members, signs in, pages the stories to the end, posts a story with pictures,
likes and unlikes it (twice each: idempotent), comments, donates, reads profiles, fetches a
picture with its ETag, refreshes (rotation: a used refresh token signs its member out), and
is refused for forged, expired, missing and another member's tokens. Each check that fails
raises; the last line is `all routes answered` when every one held. `expiry` (a server with
`--token-ttl 1`) and `expire-every` (with `--expire-tokens-every 4`) check expiry and renewal.
`post-until-stopped` (the crash test, which kills the server) signs up or in as <name> and posts
stories as fast as they are answered, printing `try <title>` before each and `ok <title>` once
its 201 has come, until the server stops answering.
"""

import base64
import hashlib
import hmac
import http.client
import json
import sys
import time
import uuid

HOST, PORT, FIXTURES = sys.argv[1], int(sys.argv[2]), sys.argv[3]
MODE = sys.argv[4] if len(sys.argv) > 4 else "routes"
connection = http.client.HTTPConnection(HOST, PORT, timeout=30)


def call(method, path, body=None, token=None, headers=None, raw=None):
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = "Bearer " + token
    data = raw
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    payload = response.read()
    kind = response.getheader("Content-Type") or ""
    parsed = json.loads(payload) if payload and kind.startswith("application/json") else payload
    return response.status, parsed, response


def post_story(token, fields, files=()):
    """POST /community/stories as the app uploads: multipart text parts, then `images[]` files."""
    boundary = "Boundary-" + uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields]
    for filename, kind, data in files:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="images[]"; filename="{filename}"\r\n'
                     f"Content-Type: {kind}\r\n\r\n".encode() + data + b"\r\n")
    form = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return call("POST", "/community/stories", token=token, raw=form,
                headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})


def expect(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok", what)


def refused(status, answer, code, what):
    expect(status == 401 and answer.get("error") == code, f"{what}: 401 {code} (got {status} {answer})")


if MODE == "post-until-stopped":
    name = sys.argv[5]
    try:
        status, member, _ = call("POST", "/community/auth/signup", {"name": name, "password": "crash test 1"})
        if status == 409:
            status, member, _ = call("POST", "/community/auth/signin", {"name": name, "password": "crash test 1"})
        number = 0
        while True:
            number += 1
            title = f"{name}-{number}"
            print("try", title, flush=True)
            status, answer, _ = post_story(member["accessToken"], [("title", title), ("content", "crash")])
            if status != 201:
                print("status", status, answer, flush=True)
                sys.exit(1)
            print("ok", title, flush=True)
    except (OSError, http.client.HTTPException):
        sys.exit(0)

if MODE == "expiry":
    # The server runs with --token-ttl 1.
    status, late, _ = call("POST", "/community/auth/signup", {"name": "준호", "password": "cats too 22"})
    status, _, _ = call("GET", "/community/profile", token=late["accessToken"])
    expect(status == 200 and late["expiresIn"] == 1, "a fresh access token works")
    time.sleep(2.2)
    status, answer, _ = call("GET", "/community/profile", token=late["accessToken"])
    refused(status, answer, "token_expired", "an access token past its --token-ttl")
    status, renewed, _ = call("POST", "/community/auth/refresh", {"refreshToken": late["refreshToken"]})
    status, _, _ = call("GET", "/community/profile", token=renewed["accessToken"])
    expect(status == 200, "refreshed after expiry, as the app's interceptor does")
    print("tokens expire")
    sys.exit(0)

if MODE == "expire-every":
    # The server runs with --expire-tokens-every 4: the sign-up is request 1.
    status, member, _ = call("POST", "/community/auth/signup", {"name": "준호", "password": "cats too 22"})
    time.sleep(1.1)  # tokens are timed in whole seconds: the 4th request's second is a later one
    answers = [call("GET", "/community/profile", token=member["accessToken"])[0] for _ in range(3)]
    expect(answers == [200, 200, 401], "the 4th request expires every token given before it")
    status, renewed, _ = call("POST", "/community/auth/refresh", {"refreshToken": member["refreshToken"]})
    status, _, _ = call("GET", "/community/profile", token=renewed["accessToken"])
    expect(status == 200, "a token given after it works")
    print("tokens expired on purpose")
    sys.exit(0)

if MODE == "hostile":
    # 1,500 requests of random methods, paths, tokens and bodies, seeded: every one is answered
    # with a status and, on the API's routes, its JSON error shape; the server goes on answering.
    import random
    rng = random.Random(46)
    status, member, _ = call("POST", "/community/auth/signup", {"name": "민지", "password": "dog lover 1"})
    good = member["accessToken"]
    pieces = ["stories", "1", "0", "-1", "99999999999999999999", "like", "comments", "profile", "profiles",
              "%EC%A4%80", "%00", "..", "auth", "signin", "refresh", "pictures", "thumbnails", "a" * 300, "donations"]
    bodies = [b"", b"{", b"[]", b"null", b'{"text":1}', b'{"amount":"1e9"}', b'{"amount":10000}', b'{"name":{}}',
              b'{"title":"\\u0000","content":"x"}', bytes(rng.randrange(256) for _ in range(64)),
              b'{"refreshToken":"a.b.c"}', b'{"text":"' + b"\xed\xa0\x80" + b'"}', b"{" * 500]
    tokens = [None, good, good[:-2] + "AA", "a.b.c", "Bearer", good + "." + good, "%%%", "x" * 5000]
    for number in range(1500):
        method = rng.choice(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
        path = "/community/" + "/".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
        if rng.random() < 0.2:
            path += "?after=" + rng.choice(["c1.000000", "zz", "%ff", ""]) + "&limit=" + rng.choice(["0", "5", "abc", "1000"])
        headers = {"Content-Type": rng.choice(["application/json", "multipart/form-data; boundary=x", "text/plain"])}
        token = rng.choice(tokens)
        if token:
            headers["Authorization"] = "Bearer " + token
        connection.request(method, path, body=rng.choice(bodies), headers=headers)
        response = connection.getresponse()
        payload = response.read()
        assert 200 <= response.status <= 599, (method, path, response.status)
        if response.status >= 400 and method != "HEAD" and len(path) < 2000:
            try:
                error = json.loads(payload)
            except ValueError:
                raise AssertionError((method, path, response.status, payload[:200]))
            assert set(error) == {"error", "message"}, (method, path, payload[:200])
    status, _, _ = call("GET", "/community/profile", token=good)
    expect(status == 200, "1,500 hostile requests later, the server answers")
    print("hostile requests answered")
    sys.exit(0)

# Sign-up and sign-in.
status, minji, _ = call("POST", "/community/auth/signup", {"name": "민지", "password": "dog lover 1"})
expect(status == 201 and minji["user"] == "민지" and minji["tokenType"] == "Bearer", "sign-up gives tokens")
status, answer, _ = call("POST", "/community/auth/signup", {"name": "민지", "password": "another one"})
expect(status == 409 and answer["error"] == "name_taken", "a taken name is a 409")
status, answer, _ = call("POST", "/community/auth/signup", {"name": "짧은", "password": "short"})
expect(status == 400 and "password" in answer["message"], "a short password is a 400 naming it")
status, junho, _ = call("POST", "/community/auth/signup", {"name": "준호", "password": "cats too 22"})
expect(status == 201, "a second member signs up")
status, answer, _ = call("POST", "/community/auth/signin", {"name": "민지", "password": "wrong password"})
expect(status == 401 and answer["error"] == "invalid_credentials", "a wrong password is a 401")
status, unknown, _ = call("POST", "/community/auth/signin", {"name": "아무도", "password": "wrong password"})
expect(status == 401 and unknown == answer, "an unknown name is the same 401, word for word")
status, minji, _ = call("POST", "/community/auth/signin", {"name": "민지", "password": "dog lover 1"})
expect(status == 200 and minji["expiresIn"] > 0, "sign-in gives tokens")
access = minji["accessToken"]

# Refused tokens.
status, answer, response = call("GET", "/community/stories")
refused(status, answer, "missing_token", "no token")
expect(response.getheader("WWW-Authenticate", "").startswith("Bearer"), "a 401 says WWW-Authenticate: Bearer")
header, claims, signature = access.split(".")
forged_claims = base64.urlsafe_b64encode(
    json.dumps({"sub": "준호", "typ": "access", "iat": 0, "exp": 4102444800, "jti": "x"}).encode()).rstrip(b"=").decode()
status, answer, _ = call("GET", "/community/stories", token=f"{header}.{forged_claims}.{signature}")
refused(status, answer, "invalid_token", "claims changed under the signature")
guessed = base64.urlsafe_b64encode(hmac.new(b"secret", f"{header}.{forged_claims}".encode(), hashlib.sha256).digest())
status, answer, _ = call("GET", "/community/stories", token=f"{header}.{forged_claims}.{guessed.rstrip(b'=').decode()}")
refused(status, answer, "invalid_token", "signed with a guessed key")
none = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
status, answer, _ = call("GET", "/community/stories", token=f"{none}.{claims}.")
refused(status, answer, "invalid_token", "alg none")
status, answer, _ = call("GET", "/community/stories", token=minji["refreshToken"])
refused(status, answer, "invalid_token", "a refresh token used as an access token")

# Stories: none yet, then a post with pictures (multipart, as the app uploads).
status, page, _ = call("GET", "/community/stories", token=access)
expect(status == 200 and page == {"stories": [], "next": None}, "no stories yet")
picture = open(FIXTURES + "/boots.jpg", "rb").read()  # 640×480
png = open(FIXTURES + "/knit.png", "rb").read()
status, story, _ = post_story(
    access, [("title", "우리 콩이"), ("content", "입양 1년")], [("0.jpeg", "image/jpeg", picture), ("1.png", "image/png", png)])
expect(status == 201 and story["title"] == "우리 콩이" and story["author"] == "민지", "a story is posted")
expect(len(story["images"]) == 2 and story["images"][0].startswith("http://"), "its pictures are URLs")
status, answer, _ = post_story(access, [("title", "no content")])
expect(status == 400 and answer["error"] == "bad_request", "a story without content is a 400")

# A picture at its stable URL, revalidated by its ETag.
path = "/" + story["images"][0].split("/", 3)[3]
status, body, response = call("GET", path)
etag = response.getheader("ETag")
expect(status == 200 and body == picture and etag, "the picture is served byte for byte, with an ETag")
status, body, _ = call("GET", path, headers={"If-None-Match": etag})
expect(status == 304 and body == b"", "If-None-Match with its ETag is a 304")
status, _, _ = call("GET", "/community/pictures/nothing-here.jpg")
expect(status == 404, "an unknown picture is a 404")
status, body, response = call("GET", "/" + story["images"][1].split("/", 3)[3])
expect(status == 200 and story["images"][1].endswith(".jpg") and body[:2] == b"\xff\xd8", "a PNG upload is kept as a JPEG, as the app compresses it")


def jpeg_size(data):
    """The width and height a JPEG's frame header says."""
    index = 2
    while index < len(data):
        marker, length = data[index + 1], int.from_bytes(data[index + 2:index + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[index + 7:index + 9], "big"), int.from_bytes(data[index + 5:index + 7], "big")
        index += 2 + length
    return None


status, body, response = call("GET", path.replace("/pictures/", "/thumbnails/"))
expect(status == 200 and jpeg_size(body) == (600, 450) and response.getheader("ETag"), "the feed's thumbnail is 600 wide")

# Paging to the end: 25 stories by 준호, 10 a page.
for number in range(25):
    status, _, _ = post_story(junho["accessToken"], [("title", f"story {number}"), ("content", "text")])
    assert status == 201
seen, after, pages = [], None, 0
while True:
    status, page, _ = call("GET", "/community/stories?limit=10" + (f"&after={after}" if after else ""), token=access)
    assert status == 200, page
    seen += [s["id"] for s in page["stories"]]
    pages += 1
    after = page["next"]
    if after is None:
        break
expect(pages == 3 and seen == sorted(seen, reverse=True) and len(seen) == 26, "26 stories in 3 pages, newest first")
status, answer, _ = call("GET", "/community/stories?after=forged", token=access)
expect(status == 400 and "cursor" in answer["message"], "a forged cursor is a 400")
status, answer, _ = call("GET", "/community/stories?limit=1000", token=access)
expect(status == 400, "a limit past 100 is a 400")

# Likes, idempotent.
sid = story["id"]
for _ in range(2):
    status, answer, _ = call("PUT", f"/community/stories/{sid}/like", token=junho["accessToken"])
    expect(status == 200 and answer == {"story": sid, "likes": 1, "liked": True}, "like (again: unchanged)")
status, shown, _ = call("GET", f"/community/stories/{sid}", token=junho["accessToken"])
expect(shown["likes"] == 1 and shown["liked"] is True, "the story says 준호 likes it")
# Answers kept for one member are never another's: asked twice each, alternating.
for _ in range(2):
    for who, likes_it in ((junho, True), (minji, False)):
        status, shown, _ = call("GET", f"/community/stories/{sid}", token=who["accessToken"])
        assert status == 200 and shown["liked"] is likes_it, (who["user"], shown)
print("ok each member sees their own likes, however often asked")
for _ in range(2):
    status, answer, _ = call("DELETE", f"/community/stories/{sid}/like", token=junho["accessToken"])
    expect(status == 200 and answer == {"story": sid, "likes": 0, "liked": False}, "unlike (again: unchanged)")
status, answer, _ = call("PUT", "/community/stories/9999/like", token=access)
expect(status == 404 and answer["error"] == "not_found", "liking no story is a 404")

# Comments: add, another's refused, own removed.
status, comment, _ = call("POST", f"/community/stories/{sid}/comments", {"text": "축하해요"}, token=junho["accessToken"])
expect(status == 201 and comment["author"] == "준호" and comment["text"] == "축하해요", "a comment is added")
status, shown, _ = call("GET", f"/community/stories/{sid}", token=access)
expect([c["text"] for c in shown["comments"]] == ["축하해요"], "the story shows its comment")
status, edited, _ = call("PATCH", f"/community/comments/{comment['id']}", {"text": "정말 축하해요"}, token=junho["accessToken"])
expect(status == 200 and edited["text"] == "정말 축하해요", "the author edits their comment")
status, answer, _ = call("PATCH", f"/community/comments/{comment['id']}", {"text": "x"}, token=access)
expect(status == 403 and answer["error"] == "forbidden", "editing another's comment is a 403")
status, edited, _ = call("PATCH", f"/community/stories/{sid}", {"title": "우리 콩이, 1년"}, token=access)
expect(status == 200 and edited["title"] == "우리 콩이, 1년" and edited["content"] == "입양 1년", "the author edits a title")
status, answer, _ = call("PATCH", f"/community/stories/{sid}", {"title": "mine now"}, token=junho["accessToken"])
expect(status == 403 and answer["error"] == "forbidden", "editing another's story is a 403")
status, answer, _ = call("PATCH", f"/community/stories/{sid}", [1, 2], token=access)
expect(status == 400 and answer["error"] == "bad_request", "a body that is not an object is a 400")
status, answer, _ = call("DELETE", f"/community/comments/{comment['id']}", token=access)
expect(status == 403 and answer["error"] == "forbidden", "removing another's comment is a 403")
status, _, _ = call("DELETE", f"/community/comments/{comment['id']}", token=junho["accessToken"])
expect(status == 204, "the author removes their comment")

# Donations, with the pack's rules.
status, donation, _ = call("POST", "/community/donations", {"amount": 10000, "message": "힘내요"}, token=access)
expect(status == 201 and donation["amount"] == 10000 and donation["receipt"] == "R-000001", "a donation is recorded")
status, answer, _ = call("POST", "/community/donations", {"amount": 1500}, token=access)
expect(status == 400 and "amount" in answer["message"], "1,500 won is refused by the amount's rule")
status, answer, _ = call("POST", "/community/donations", {"amount": True}, token=access)
expect(status == 400, "an amount that is not a number is a 400")

# Profiles.
status, profile, _ = call("GET", "/community/profile", token=access)
expect(status == 200 and profile["user"] == "민지" and [s["id"] for s in profile["stories"]] == [sid], "my profile")
expect(profile["donationTotal"] == 10000 and profile["donations"][0]["receipt"] == "R-000001", "with my donations")
status, profile, _ = call("GET", "/community/profiles/%EC%A4%80%ED%98%B8", token=access)
expect(status == 200 and profile["user"] == "준호" and len(profile["stories"]) == 25, "another member's profile")

# Another's story is refused; one's own is removed.
status, answer, _ = call("DELETE", f"/community/stories/{sid}", token=junho["accessToken"])
expect(status == 403 and answer["error"] == "forbidden", "removing another's story is a 403")
status, _, _ = call("DELETE", f"/community/stories/{sid}", token=access)
expect(status == 204, "the author removes their story")
status, answer, _ = call("GET", f"/community/stories/{sid}", token=access)
expect(status == 404, "a removed story is a 404")

# Refresh rotates: the new pair works, the used refresh token signs the member out.
status, fresh, _ = call("POST", "/community/auth/refresh", {"refreshToken": minji["refreshToken"]})
expect(status == 200 and fresh["refreshToken"] != minji["refreshToken"], "refresh gives a new pair")
status, _, _ = call("GET", "/community/profile", token=fresh["accessToken"])
expect(status == 200, "the new access token works")
status, answer, _ = call("POST", "/community/auth/refresh", {"refreshToken": minji["refreshToken"]})
refused(status, answer, "refresh_token_reused", "a refresh token used twice")
status, answer, _ = call("POST", "/community/auth/refresh", {"refreshToken": fresh["refreshToken"]})
refused(status, answer, "refresh_token_reused", "after a reuse, the member's other refresh tokens")

status, answer, _ = call("PATCH", "/community/profile", token=access)
expect(status == 405 and answer["error"] == "method_not_allowed", "an unknown route is a 405 in the API's shape")
print("all routes answered")
