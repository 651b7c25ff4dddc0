"""Local development commands:

python -m local serve [--port 3000]      the whole API on http://127.0.0.1:3000 (make run)
python -m local invoke Auth -e events/auth/login.json
python -m local seed                     load the demo data file through the data set import (idempotent)
python -m local demo-data                rewrite local/seed/demo-data.json from local/seed's tables
python -m local event events/auth/me.json  print the event with fresh tokens of the demo user (sam local)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from local.runtime import (
    AlreadyRunning,
    LocalDatabase,
    RunLock,
    apply_local_defaults,
    database_watch,
    ensure_database,
    prepare_database,
)
from local.static import assets_base_url


def serve(port: int, host: str, database: LocalDatabase | None, lock: RunLock) -> None:
    import threading

    from data.mongo import reset_client
    from local import scheduler, webhooks
    from local.docs import DOCS_PREFIX
    from local.seed.core import DEMO_PARTNER, DEMO_PARTNER_KEY
    from local.template import UnsupportedSchedule
    from local.workers import WorkerPool, worker_count

    try:
        jobs = scheduler.local_schedule()  # before anything starts: a schedule it cannot keep stops it here
    except UnsupportedSchedule as why:
        raise SystemExit(f"template.yaml: {why}; make run cannot run it on its schedule") from None
    os.environ.setdefault("ASSETS_BASE_URL", assets_base_url(host, port))  # images and files of the seed
    workers = worker_count()
    try:
        pool = WorkerPool(host, port, workers)  # bound before seeding: a taken port fails fast
    except OSError as taken:
        raise SystemExit(
            f"cannot serve on {host}:{port} ({taken.strerror}): PORT=8080 make run serves elsewhere"
        ) from None
    # A database that has a catalog keeps it (an operator's or a developer's changes); `make seed` reloads.
    changed = prepare_database(seed=True, only_if_empty=True)
    demo = "users" in changed  # the demo partner and user are added only where the demo data is
    reset_client()  # the workers open their own connections
    print(f"MongoDB: {os.environ['MONGODB_URI']}  (mongosh, or MONGODB_URI=... car-retail-ops ...)")
    lock.describe(pid=os.getpid(), api=f"http://{host}:{port}", mongodb=os.environ["MONGODB_URI"])
    if demo:
        written = ", ".join(f"{k} {v}" for k, v in changed.items() if v)
        print(f"demo data: {sum(changed.values())} records written ({written})")
        print(f"Car Retail API on http://{host}:{port}  (client header: {DEMO_PARTNER_KEY})")
    else:
        print("this database has a catalog of its own: no demo data, no demo partner (car-retail-ops partners add)")
        print(f"Car Retail API on http://{host}:{port}")
    print(f"Swagger UI on http://{host}:{port}{DOCS_PREFIX}")
    print(f"{workers} worker processes (WORKERS), each running one request at a time like a Lambda instance")
    webhooks.install()
    receiver = webhooks.start_receiver(DEMO_PARTNER) if demo else None
    if receiver is not None:
        print(
            f"{DEMO_PARTNER}'s webhooks go to {webhooks.receiver_url(receiver)}: each delivery is printed here "
            "(LOCAL_WEBHOOK_PORT=0 turns this off)"
        )
    print(f"scheduled jobs (template.yaml): {', '.join(job.describe() for job in jobs)}")
    print("Press CTRL+C to quit", flush=True)
    stop_jobs = threading.Event()
    scheduler.Scheduler(jobs).start(stop_jobs)
    try:
        pool.run(supervise=database_watch(database))
    finally:
        stop_jobs.set()
        if receiver is not None:
            receiver.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m local", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve_cmd = commands.add_parser("serve", help="serve the whole API locally")
    serve_cmd.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    serve_cmd.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    invoke_cmd = commands.add_parser("invoke", help="invoke one function with one API Gateway event")
    invoke_cmd.add_argument("function", help="function name from template.yaml, e.g. Auth")
    invoke_cmd.add_argument("-e", "--event", required=True, type=Path, help="event JSON file")
    commands.add_parser("seed", help="create indexes and load the demo data")
    commands.add_parser("demo-data", help="rewrite local/seed/demo-data.json from local/seed's tables")
    event_cmd = commands.add_parser("event", help="print an event file with fresh tokens of the demo user")
    event_cmd.add_argument("event", type=Path, help="event JSON file")
    args = parser.parse_args(argv)
    if args.command == "demo-data":
        from local.seed import write_demo_data

        print(f"wrote {write_demo_data()}")
        return 0

    apply_local_defaults()
    lock = RunLock()
    if args.command == "serve" and not os.environ.get("MONGODB_URI"):
        try:
            lock.acquire()  # before the database: a second `make run` touches nothing of the first's
        except AlreadyRunning as running:
            print(running, file=sys.stderr)
            return 1
    database = ensure_database()
    try:
        if args.command == "serve":
            serve(args.port, args.host, database, lock)
        elif args.command == "seed":
            print(json.dumps(prepare_database(seed=True)))
        elif args.command == "event":
            from local.invoke import load_event

            prepare_database(seed=True)
            print(json.dumps(load_event(args.event), indent=2, ensure_ascii=False))
        else:
            from local import webhooks
            from local.invoke import invoke, load_event

            prepare_database(seed=True, only_if_empty=True)
            webhooks.install()
            print(json.dumps(invoke(args.function, load_event(args.event)), indent=2, ensure_ascii=False))
    except KeyboardInterrupt:
        pass
    finally:
        if database is not None:
            database.stop()
        lock.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
