#!/usr/bin/env python3
"""The edits of scripts/bench's rebuild series, made in place in a directory store.

    bench_edits.py pick STORE            the files the edits touch, one per line (see pick)
    bench_edits.py caption FILE WORD     append WORD to a tweet's caption
    bench_edits.py like FILE             write a new like document ({}) at FILE
    bench_edits.py rename FILE WORD      append WORD to a user's fullname
    bench_edits.py template FILE TEXT    insert TEXT on a line of its own after {{$main}}

Store files are rewritten through the same inode (open for writing truncates it), so the
build cache sees a new size, mtime and ctime for that file only; a store copy would give
every file a new inode.
"""
import json
import os
import sys


def pick(store):
    """Prints three paths relative to STORE: the tweet whose caption is edited (the first by
    id), the like to add (the first user by uid, other than the author, who has not liked
    that tweet), and the user to rename (the one with the most tweets, ties by uid), then
    that user's tweet count."""
    tweets_dir = os.path.join(store, "tweets")
    tweet_ids = sorted(name[:-5] for name in os.listdir(tweets_dir) if name.endswith(".json"))
    if not tweet_ids:
        sys.exit(f"bench_edits: no tweets in {tweets_dir}")
    counts = {}
    author = None
    for tweet_id in tweet_ids:
        with open(os.path.join(tweets_dir, tweet_id + ".json"), encoding="utf-8") as f:
            uid = json.load(f).get("uid")
        if tweet_id == tweet_ids[0]:
            author = uid
        if isinstance(uid, str):
            counts[uid] = counts.get(uid, 0) + 1
    users_dir = os.path.join(store, "users")
    uids = sorted(name[:-5] for name in os.listdir(users_dir) if name.endswith(".json"))
    target = tweet_ids[0]
    liker = next(
        (uid for uid in uids
         if uid != author and not os.path.exists(os.path.join(users_dir, uid, "user-likes", target + ".json"))),
        None)
    if liker is None:
        sys.exit(f"bench_edits: every user of {store} has liked {target}")
    heavy = min(uids, key=lambda uid: (-counts.get(uid, 0), uid))
    print(f"tweets/{target}.json")
    print(f"users/{liker}/user-likes/{target}.json")
    print(f"users/{heavy}.json")
    print(counts.get(heavy, 0))


def rewrite(path, field, word):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc[field] = f"{doc.get(field) or ''} {word}".strip()
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")


def like(path):
    if os.path.exists(path):
        sys.exit(f"bench_edits: {path} exists already")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("{}\n")


def template(path, text):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    at = next((i for i, line in enumerate(lines) if line.strip() == "{{$main}}"), None)
    if at is None:
        sys.exit(f"bench_edits: no {{{{$main}}}} line in {path}")
    lines.insert(at + 1, text)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def main(argv):
    commands = {
        "pick": (1, lambda a: pick(a[0])),
        "caption": (2, lambda a: rewrite(a[0], "caption", a[1])),
        "like": (1, lambda a: like(a[0])),
        "rename": (2, lambda a: rewrite(a[0], "fullname", a[1])),
        "template": (2, lambda a: template(a[0], a[1])),
    }
    if len(argv) < 1 or argv[0] not in commands or len(argv) - 1 != commands[argv[0]][0]:
        sys.exit(__doc__)
    commands[argv[0]][1](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
