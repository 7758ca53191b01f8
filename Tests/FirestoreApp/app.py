#!/usr/bin/env python3
"""The app, played by Google's Python client against the Firestore emulator, for Roost's tests.

Every command writes what the iOS app writes, the way it writes it (read-then-write counters
included), into the project given with --project on the emulator FIRESTORE_EMULATOR_HOST names:

    load DIR                          every document of a directory store (SPEC 2.1)
    like UID TWEET                    the like and the tweet's counter, read plus one
    unlike UID TWEET                  the like deleted, the counter read minus one
    tweet UID ID CAPTION --at TIME [--reply-to PARENT]
    edit-caption ID CAPTION
    rename UID USERNAME [--fullname NAME]
    favorite-add UID PLACEID NAME [--address A] [--lat X --lon Y]
    favorite-remove UID PLACEID
    churn --seconds S --seed N        likes and unlikes at random until the time is up

The writes take --mirror DIR: the same edit applied to a directory store folder, so a test can
compare a site built from the emulator with one built from a folder holding the same data.
Exit status 0, or 1 (a failed write) or 2 (bad arguments) with a message on standard error.
"""

import argparse
import datetime
import json
import os
import random
import re
import sys
import time

# Firestore stores timestamps to the microsecond: it drops the rest of what the client sends.
FIRESTORE_EARLIEST = -62_135_596_800  # 0001-01-01T00:00:00Z
FIRESTORE_LATEST = 253_402_300_800  # 10000-01-01T00:00:00Z
BATCH_LIMIT = 500  # writes per commit that production accepts

# The RFC 3339 forms Roost's own parser takes (Sources/Store/RFC3339.swift): "t"/"z" and a space
# for "T" too. A string it would refuse stays a string, so both builds report the same error.
RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))\Z",
    re.ASCII,
)


class Failure(Exception):
    """A write or a read that failed: exit 1 with the message."""


class Usage(Exception):
    """Bad arguments: exit 2 with the message, as argparse does."""


def parse_rfc3339(text):
    """(seconds since 1970, nanoseconds) of an RFC 3339 string, or None as Roost would say."""
    m = RFC3339.match(text)
    if not m:
        return None
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    fraction, _, sign, offset_hours, offset_minutes = m.groups()[6:]
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days_in_month = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= month <= 12 and 1 <= day <= days_in_month[month - 1]):
        return None
    if hour > 23 or minute > 59 or second > 60:
        return None
    offset = 0
    if sign:
        if int(offset_hours) > 23 or int(offset_minutes) > 59:
            return None
        offset = (int(offset_hours) * 3600 + int(offset_minutes) * 60) * (-1 if sign == "-" else 1)
    nanos = int(fraction[:9].ljust(9, "0")) if fraction else 0
    # Whole days from the proleptic calendar, the seconds by hand: a leap second (:60) is then
    # simply the next second, as Roost counts it.
    days = (datetime.date(year, month, day) - datetime.date(1970, 1, 1)).days
    seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
    if not FIRESTORE_EARLIEST <= seconds < FIRESTORE_LATEST:
        return None
    return seconds, nanos


def firestore_time(seconds, nanos):
    """A timezone-aware datetime that keeps all nine digits (the client sends them all)."""
    from google.api_core.datetime_helpers import DatetimeWithNanoseconds

    base = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return DatetimeWithNanoseconds(
        base.year, base.month, base.day, base.hour, base.minute, base.second,
        nanosecond=nanos, tzinfo=datetime.timezone.utc,
    )


def rfc3339_text(seconds, nanos):
    """The 'Z' form Roost's directory writer uses: nine fraction digits when there are any."""
    t = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    text = f"{t.year:04}-{t.month:02}-{t.day:02}T{t.hour:02}:{t.minute:02}:{t.second:02}"
    return text + (f".{nanos:09}" if nanos else "") + "Z"


def stored_time(text):
    """--at TIME as (seconds, nanoseconds) the database keeps: to the microsecond."""
    parsed = parse_rfc3339(text)
    if parsed is None:
        raise usage(f"not an RFC 3339 time: {text!r} (e.g. 2024-05-01T09:30:00Z)")
    seconds, nanos = parsed
    return seconds, nanos - nanos % 1000


def document_fields(body):
    """A JSON document as the SDK writes it: the same values, a `timestamp` string a timestamp."""
    fields = dict(body)
    stamp = fields.get("timestamp")
    if isinstance(stamp, str):
        parsed = parse_rfc3339(stamp)
        if parsed is not None:
            fields["timestamp"] = firestore_time(*parsed)
    return fields


def store_documents(folder):
    """(path, fields) of every document of a directory store, in a stable order.

    A collection is a folder; in it, ID.json is a document and a folder ID holds that
    document's subcollections, with or without ID.json ("missing" parents stay missing).
    """
    found = []

    def collection(disk, path):
        for name in sorted(os.listdir(disk)):
            if name.startswith("."):
                continue
            entry = os.path.join(disk, name)
            if os.path.isdir(entry):
                for sub in sorted(os.listdir(entry)):
                    if not sub.startswith(".") and os.path.isdir(os.path.join(entry, sub)):
                        collection(os.path.join(entry, sub), f"{path}/{name}/{sub}")
            elif name.endswith(".json"):
                found.append((f"{path}/{name[: -len('.json')]}", read_json(entry)))

    for name in sorted(os.listdir(folder)):
        if not name.startswith(".") and os.path.isdir(os.path.join(folder, name)):
            collection(os.path.join(folder, name), name)
    return found


def read_json(file):
    try:
        with open(file, encoding="utf-8") as f:
            body = json.load(f)
    except (OSError, ValueError) as error:
        raise Failure(f"{file}: {error}")
    if not isinstance(body, dict):
        raise Failure(f"{file}: a document is a JSON object")
    return body


class Mirror:
    """The same edits on a directory store folder: JSON files written and deleted in place."""

    def __init__(self, folder):
        if folder is not None and not os.path.isdir(folder):
            raise usage(f"--mirror {folder}: no such folder")
        self.folder = folder

    def file(self, path):
        return os.path.join(self.folder, *path.split("/")) + ".json"

    def write(self, path, body):
        if self.folder is None:
            return
        file = self.file(path)
        os.makedirs(os.path.dirname(file), exist_ok=True)
        temporary = file + ".tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(body, f, ensure_ascii=False, indent=2)
            f.write("\n")
        os.replace(temporary, file)  # a reader never sees half a file

    def update(self, path, changes):
        """Changes some fields of a document whose file exists, keeping the others as they were."""
        if self.folder is None or not os.path.exists(self.file(path)):
            return
        body = read_json(self.file(path))
        body.update(changes)
        self.write(path, body)

    def delete(self, path):
        if self.folder is not None and os.path.exists(self.file(path)):
            os.remove(self.file(path))


def usage(message):
    return Usage(message)


# The commands. Each takes the client and the parsed arguments.


def load(db, args, mirror):
    documents = store_documents(args.dir)
    for start in range(0, len(documents), BATCH_LIMIT):
        batch = db.batch()
        for path, body in documents[start : start + BATCH_LIMIT]:
            batch.set(db.document(path), document_fields(body))
        batch.commit()
    print(f"{len(documents)} documents written")


def counter(snapshot):
    """The tweet's `likes` as the app reads it (missing or not a number: 0)."""
    value = snapshot.to_dict().get("likes")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def set_like(db, mirror, uid, tweet_id, liked):
    """One like or unlike as the app does it: the counter read, then one batch. Returns its writes."""
    like_path = f"users/{uid}/user-likes/{tweet_id}"
    tweet = db.document(f"tweets/{tweet_id}")
    snapshot = tweet.get()
    batch = db.batch()
    if liked:
        batch.set(db.document(like_path), {})
    else:
        batch.delete(db.document(like_path))
    writes = 1
    if snapshot.exists:
        likes = counter(snapshot) + (1 if liked else -1)
        batch.update(tweet, {"likes": likes})
        writes += 1
    batch.commit()
    if liked:
        mirror.write(like_path, {})
    else:
        mirror.delete(like_path)
    if snapshot.exists:
        mirror.update(f"tweets/{tweet_id}", {"likes": likes})
    return writes


def like(db, args, mirror):
    set_like(db, mirror, args.uid, args.tweet, liked=True)


def unlike(db, args, mirror):
    set_like(db, mirror, args.uid, args.tweet, liked=False)


def tweet(db, args, mirror):
    seconds, nanos = stored_time(args.at)
    fields = {"caption": args.caption, "timestamp": firestore_time(seconds, nanos), "uid": args.uid, "likes": 0}
    if args.reply_to is not None:
        fields["replyTo"] = args.reply_to
    db.document(f"tweets/{args.id}").create(fields)
    mirror.write(f"tweets/{args.id}", dict(fields, timestamp=rfc3339_text(seconds, nanos)))


def edit_caption(db, args, mirror):
    db.document(f"tweets/{args.id}").update({"caption": args.caption})
    mirror.update(f"tweets/{args.id}", {"caption": args.caption})


def rename(db, args, mirror):
    changes = {"username": args.username}
    if args.fullname is not None:
        changes["fullname"] = args.fullname
    db.document(f"users/{args.uid}").update(changes)
    mirror.update(f"users/{args.uid}", changes)


def favorite_add(db, args, mirror):
    if (args.lat is None) != (args.lon is None):
        raise usage("favorite-add: --lat and --lon go together")
    place = {"placeName": args.name, "placeID": args.placeid}
    if args.address is not None:
        place["address"] = args.address
    if args.lat is not None:
        place["coordinate"] = {"latitude": args.lat, "longitude": args.lon}
    # Only the place: its parent favorites/UID stays a "missing" document, as the app leaves it.
    path = f"favorites/{args.uid}/favorites/{args.placeid}"
    db.document(path).set(place)
    mirror.write(path, place)


def favorite_remove(db, args, mirror):
    path = f"favorites/{args.uid}/favorites/{args.placeid}"
    db.document(path).delete()
    mirror.delete(path)


def churn(db, args, mirror):
    if args.seconds <= 0:
        raise usage("churn: --seconds must be more than 0")
    users = sorted(d.id for d in db.collection("users").stream())
    tweets = sorted(d.id for d in db.collection("tweets").stream())
    if not users or not tweets:
        raise Failure("churn: the project has no users or no tweets")
    liked = {(d.reference.parent.parent.id, d.id) for d in db.collection_group("user-likes").stream()}
    rng = random.Random(args.seed)
    writes = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        pair = (rng.choice(users), rng.choice(tweets))
        # Like what is not liked and unlike what is, as a person tapping hearts does.
        writes += set_like(db, mirror, *pair, liked=pair not in liked)
        liked ^= {pair}
    print(f"{writes} writes")


def arguments(argv):
    parser = argparse.ArgumentParser(prog="app.py", description="Google's Python client playing the app.")
    parser.add_argument("--project", required=True, help="the project (database (default))")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, function, *positional, mirrored=True):
        sub = commands.add_parser(name)
        for argument in positional:
            sub.add_argument(argument)
        if mirrored:
            sub.add_argument("--mirror", metavar="DIR", help="apply the same edit to this directory store")
        sub.set_defaults(function=function)
        return sub

    command("load", load, "dir", mirrored=False)
    command("like", like, "uid", "tweet")
    command("unlike", unlike, "uid", "tweet")
    sub = command("tweet", tweet, "uid", "id", "caption")
    sub.add_argument("--at", required=True, metavar="RFC3339")
    sub.add_argument("--reply-to", metavar="PARENT")
    command("edit-caption", edit_caption, "id", "caption")
    sub = command("rename", rename, "uid", "username")
    sub.add_argument("--fullname", metavar="NAME")
    sub = command("favorite-add", favorite_add, "uid", "placeid", "name")
    sub.add_argument("--address")
    sub.add_argument("--lat", type=float)
    sub.add_argument("--lon", type=float)
    command("favorite-remove", favorite_remove, "uid", "placeid")
    sub = command("churn", churn)
    sub.add_argument("--seconds", type=float, required=True)
    sub.add_argument("--seed", type=int, required=True)
    return parser.parse_args(argv)


def main(argv):
    args = arguments(argv)
    if not os.environ.get("FIRESTORE_EMULATOR_HOST"):
        # Never production: this script writes and deletes freely.
        raise usage("FIRESTORE_EMULATOR_HOST is not set: this script writes to the emulator only")
    if args.command == "load" and not os.path.isdir(args.dir):
        raise usage(f"load: {args.dir}: no such folder")
    mirror = Mirror(getattr(args, "mirror", None))

    from google.api_core import exceptions
    from google.cloud import firestore

    db = firestore.Client(project=args.project)
    try:
        args.function(db, args, mirror)
    except exceptions.GoogleAPIError as error:
        raise Failure(f"{args.command}: {' '.join(str(error).split())}")  # the emulator answers on many lines


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Failure as failure:
        print(f"app.py: {failure}", file=sys.stderr)
        sys.exit(1)
    except Usage as problem:
        print(f"app.py: {problem}", file=sys.stderr)
        sys.exit(2)
