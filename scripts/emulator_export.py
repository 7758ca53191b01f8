#!/usr/bin/env python3
"""Writes a store into the Firestore emulator and has the emulator export it: the export
folders that Roost's tests and `scripts/bench export` read (SPEC 12).

    python3 scripts/emulator_export.py (--store DIR | --rest FILE.json) --to PARENT --name NAME
        [--firebase] [--host HOST:PORT] [--project P]

--store DIR       a directory store (SPEC 2.1): each JSON value as its REST typed value
                  (integers that fit 64 bits as integerValue, other numbers as doubleValue, …);
--rest FILE.json  a JSON array of REST documents ({"name": "projects/P/databases/(default)/
                  documents/PATH", "fields": {…}}: typed values as they are written);
--to PARENT       the folder the export goes into (created); the export is PARENT/NAME;
--firebase        the layout of `firebase emulators:export` instead: PARENT/NAME holds
                  firebase-export-metadata.json and the export as firestore_export/;
--host            an emulator that runs; without it one is started from the gcloud SDK's jar
                  on a free 127.0.0.1 port and stopped (by its process ID) at the end.

The project's database is emptied first, so the export holds exactly the store. Standard
library only.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

BATCH = 500  # writes per commit (production's limit; the emulator takes more)


def call(host, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://{host}{path}", data=data, method=method,
        headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            text = response.read()
            return json.loads(text) if text.strip() else None
    except urllib.error.HTTPError as error:
        sys.exit(f"emulator_export: {method} {path}: HTTP {error.code}: {error.read().decode(errors='replace')}")


def typed(value):
    """A plain JSON value of a directory store as a REST typed value."""
    if value is None:
        return {"nullValue": None}
    if isinstance(value, bool):
        return {"booleanValue": value}
    if isinstance(value, int):
        if -2**63 <= value < 2**63:
            return {"integerValue": str(value)}
        return {"doubleValue": float(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [typed(v) for v in value]}}
    return {"mapValue": {"fields": {k: typed(v) for k, v in value.items()}}}


def directory_documents(root):
    """(path, fields) of every document of a directory store, in path order."""
    found = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or not name.endswith(".json"):
                continue
            relative = os.path.relpath(os.path.join(folder, name), root)[: -len(".json")]
            if len(relative.split(os.sep)) % 2:
                continue  # a .json file at a collection's place is no document
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                body = json.load(file)
            found.append((relative.replace(os.sep, "/"), {k: typed(v) for k, v in body.items()}))
    return found


def rest_documents(file):
    with open(file, encoding="utf-8") as handle:
        documents = json.load(handle)
    return [(d["name"].split("/documents/", 1)[1], d.get("fields", {})) for d in documents]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_emulator():
    sdk = subprocess.run(["gcloud", "info", "--format=value(installation.sdk_root)"],
                         capture_output=True, text=True).stdout.strip() or "/usr/lib/google-cloud-sdk"
    jar = os.path.join(sdk, "platform/cloud-firestore-emulator/cloud-firestore-emulator.jar")
    if not os.path.exists(jar):
        sys.exit(f"emulator_export: no emulator jar at {jar} (gcloud components install cloud-firestore-emulator)")
    port = free_port()
    process = subprocess.Popen(
        ["java", "-cp", jar, "com.google.cloud.datastore.emulator.firestore.CloudFirestore", "start",
         "--host=127.0.0.1", f"--port={port}", "--database-mode=firestore-native"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    host = f"127.0.0.1:{port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://{host}/", timeout=1) as response:
                if response.read().strip() == b"Ok":
                    return process, host
        except OSError:
            pass
        if process.poll() is not None:
            sys.exit("emulator_export: the emulator stopped while starting")
        time.sleep(0.1)
    process.kill()
    sys.exit("emulator_export: the emulator did not start within a minute")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--store")
    source.add_argument("--rest")
    parser.add_argument("--to", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--firebase", action="store_true")
    parser.add_argument("--host")
    parser.add_argument("--project", default="roost-export")
    args = parser.parse_args()

    documents = directory_documents(args.store) if args.store else rest_documents(args.rest)
    process, host = (None, args.host) if args.host else start_emulator()
    try:
        database = f"projects/{args.project}/databases/(default)"
        call(host, "DELETE", f"/emulator/v1/{database}/documents")
        for k in range(0, len(documents), BATCH):
            writes = [{"update": {"name": f"{database}/documents/{path}", "fields": fields}}
                      for path, fields in documents[k:k + BATCH]]
            call(host, "POST", f"/v1/{database}/documents:commit", {"writes": writes})
        parent = os.path.abspath(args.to)
        target = os.path.join(parent, args.name)
        if os.path.exists(target):
            shutil.rmtree(target)
        folder, name = (target, "firestore_export") if args.firebase else (parent, args.name)
        os.makedirs(folder, exist_ok=True)
        call(host, "POST", f"/emulator/v1/projects/{args.project}:export",
             {"database": database, "export_directory": folder, "export_name": name})
        if args.firebase:
            # What `firebase emulators:export` writes beside the Firestore part.
            metadata = {"version": "13.0.0", "firestore": {
                "version": "1.19.9", "path": "firestore_export",
                "metadata_file": "firestore_export/firestore_export.overall_export_metadata"}}
            with open(os.path.join(target, "firebase-export-metadata.json"), "w") as file:
                json.dump(metadata, file, indent=2)
                file.write("\n")
        print(f"{len(documents)} documents exported to {target}")
    finally:
        if process:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main()
