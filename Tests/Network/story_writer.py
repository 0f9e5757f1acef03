#!/usr/bin/env python3
"""Posts stories to `closet serve` as fast as it answers, until it stops answering (the crash
test kills it): `story_writer.py HOST PORT NAME`. Prints `try <title>` before each post and
`ok <title>` once its 201 has arrived, flushed, so the test knows which were acknowledged."""
import http.client
import json
import sys
import uuid

HOST, PORT, NAME = sys.argv[1], int(sys.argv[2]), sys.argv[3]
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
    return response.status, json.loads(payload) if payload else None


try:
    status, member = call("POST", "/community/auth/signup", {"name": NAME, "password": "crash test 1"})
    if status == 409:
        status, member = call("POST", "/community/auth/signin", {"name": NAME, "password": "crash test 1"})
    token = member["accessToken"]
    number = 0
    while True:
        number += 1
        title = f"{NAME}-{number}"
        boundary = "Boundary-" + uuid.uuid4().hex
        form = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                       for name, value in (("title", title), ("content", "crash"))) + f"--{boundary}--\r\n"
        print("try", title, flush=True)
        status, _ = call("POST", "/community/stories", token=token, raw=form.encode(),
                         headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        if status != 201:
            print("status", status, flush=True)
            sys.exit(1)
        print("ok", title, flush=True)
except (OSError, http.client.HTTPException):
    sys.exit(0)
