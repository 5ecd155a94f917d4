#!/usr/bin/env python3
"""A loopback OpenAI-compatible server that answers every chat request with one hostile reply shape,
for measuring `switchboard-bench ask` against it (peak RSS and seconds; see Docs/Hardening.md).

Usage: Scripts/hostile-reply-server.py SHAPE [PORT]   (prints the port it listens on)
Shapes: healthy, slow (a real token every 2.5 s), slow-tool (one byte of an unrequested tool call's
arguments every second), wide (forty 1 MB events at once), huge (a 28.8 MB structured reply paced over
20 s), objects (a 15 MB JSON reply of [{},{},...]), chars (one character per piece, 206 pieces),
mega (thirty 1 MB pieces).
"""
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SHAPE = sys.argv[1]

def chunk(content=None, tool=None, finish=None):
    delta = {}
    if content is not None: delta["content"] = content
    if tool is not None: delta["tool_calls"] = [tool]
    return "data: " + json.dumps({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"

DONE = chunk(finish="stop") + "data: [DONE]\n\n"

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass

    def send_chunk(self, text):
        data = text.encode() if isinstance(text, str) else text
        self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
        self.wfile.flush()

    def head(self, content_type="text/event-stream"):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        start = time.monotonic()
        ending = "sent whole"
        try:
            self.answer()
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            ending = "closed by the client"
        # One line per attempt on stderr: how long the client held the connection.
        print("attempt: %.2f s, %s" % (time.monotonic() - start, ending), file=sys.stderr, flush=True)

    def answer(self):
        if SHAPE == "healthy":
            self.head()
            for word in ["Blue ", "light ", "scatters ", "more."]: self.send_chunk(chunk(word))
            self.send_chunk(DONE)
        elif SHAPE == "slow":
            self.head()
            for i in range(200):
                self.send_chunk(chunk("word%d " % i)); time.sleep(2.5)
        elif SHAPE == "slow-tool":
            self.head()
            self.send_chunk(chunk(tool={"index": 0, "id": "c1", "function": {"name": "x", "arguments": ""}}))
            for _ in range(200):
                time.sleep(1); self.send_chunk(chunk(tool={"index": 0, "function": {"arguments": "a"}}))
        elif SHAPE == "wide":
            self.head()
            event = chunk("w" * (1 << 20))
            for _ in range(40): self.send_chunk(event)
            self.send_chunk(DONE)
        elif SHAPE == "huge":
            self.head()
            self.send_chunk(chunk('{"answer": "'))
            piece = chunk("h" * (64 << 10))
            for _ in range(450):  # 28.8 MB over 20 s
                self.send_chunk(piece); time.sleep(20 / 450)
            self.send_chunk(chunk('"}')); self.send_chunk(DONE)
        elif SHAPE == "objects":
            self.head("application/json")
            body = b"[" + b"{}," * (5 << 20) + b"{}]"
            for i in range(0, len(body), 1 << 20): self.send_chunk(body[i:i + (1 << 20)])
        elif SHAPE == "chars":
            self.head()
            for i in range(206): self.send_chunk(chunk("abcdefghijklmnopqrstuvwxyz"[i % 26]))
            self.send_chunk(DONE)
        elif SHAPE == "mega":
            self.head()
            event = chunk("m" * ((1 << 20) - 200))
            for _ in range(30): self.send_chunk(event)
            self.send_chunk(DONE)

server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
