"""The Dask backend on a real LocalCluster (two worker processes on loopback)."""
import os
import signal
import threading
import time

import pytest

distributed = pytest.importorskip("distributed")

from sim.runner import execute  # noqa: E402
from sim.spec import make_spec  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster
    c = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                     host="127.0.0.1")
    yield c
    c.close()


def test_dask_cluster_gives_the_local_result(cluster):
    spec = make_spec("puluc", 6_000, bots="greedy,random", seed=17)
    local = execute(spec, jobs=1, chunk_size=1000, progress=False, rows="memory")
    remote = execute(spec, backend="dask", scheduler=cluster.scheduler_address, chunk_size=700,
                     progress=False, rows="memory")
    assert remote.manifest["backend"] == "dask"
    assert remote.summary.to_dict() == local.summary.to_dict()
    assert remote.frame.equals(local.frame)


def test_killing_a_worker_mid_run_still_completes_identically(cluster, tmp_path):
    spec = make_spec("puluc", 48_000, bots="search,greedy", seed=5)  # 120 chunks: time to kill
    box = {}

    def run():
        box["res"] = execute(spec, backend="dask", scheduler=cluster.scheduler_address,
                             chunk_size=400, progress=False, rows="none", out_dir=tmp_path)

    t = threading.Thread(target=run)
    t.start()
    chunks = tmp_path / "chunks"
    deadline = time.time() + 120
    while time.time() < deadline and (not chunks.is_dir() or len(list(chunks.iterdir())) < 6):
        time.sleep(0.05)
    victim = next(iter(cluster.workers.values()))
    pid = victim.process.process.pid  # the worker process under its nanny
    os.kill(pid, signal.SIGKILL)
    killed_at = len(list(chunks.iterdir()))
    t.join(300)
    assert not t.is_alive()
    res = box["res"]
    assert killed_at < 120, "the worker was killed after the run finished"
    assert not res.partial and res.summary.n == 48_000
    local = execute(spec, jobs=1, chunk_size=3000, progress=False, rows="none")
    assert res.summary.to_dict() == local.summary.to_dict()
