#!/usr/bin/env python3
"""[dp] Two processes over net_memif: dpsctp-echo as the server (memif
server role) and as the client (memif client role), 10,000 messages of
mixed sizes echoed and checked by the client, a graceful shutdown seen by
the server, and a clean exit on SIGTERM. The child is always killed and the
socket file removed, also on failure.

usage: dp_memif_test.py PATH/TO/dpsctp-echo
"""
import os
import signal
import subprocess
import sys
import time


def main():
    echo = sys.argv[1]
    tag = f"dpm{os.getpid()}"
    sock = f"/tmp/{tag}.sock"
    eal = ["-l", "0", "--no-huge", "--no-pci", "-m", "512", "--log-level", "lib.eal:error"]
    port = f"net_memif0,socket={sock},socket-abstract=no,id=0"
    server = None
    try:
        server = subprocess.Popen(
            [echo, *eal, f"--file-prefix={tag}s", "--", "--port", port + ",role=server",
             "--ip", "10.0.0.2/24", "-s"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for _ in range(100):  # the server's socket appears once its port is up
            if os.path.exists(sock) or server.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(sock):
            print("FAIL: the server made no memif socket at", sock)
            return 1
        client = subprocess.run(
            [echo, *eal, f"--file-prefix={tag}c", "--", "--port", port + ",role=client",
             "--ip", "10.0.0.1/24", "-c", "10.0.0.2", "-n", "10000", "-l", "1200",
             "--streams", "8"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        print("client:\n" + client.stdout)
        ok = client.returncode == 0 and "10000 echoed intact, 0 bad" in client.stdout
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=20)
        print("server:\n" + out)
        if "association closed" not in out:
            print("FAIL: the server did not see the graceful shutdown")
            ok = False
        if server.returncode != 0:
            print("FAIL: the server exited with", server.returncode)
            ok = False
        server = None
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        if server is not None:
            server.kill()
            server.wait()
        if os.path.exists(sock):
            os.unlink(sock)


if __name__ == "__main__":
    sys.exit(main())
