"""The simulation on a Dask cluster (the optional extra) gives the local report exactly.

CI installs the extra (`make test` installs '.[test,dask]') and this test starts a local
cluster of two worker processes, as a user's remote cluster would be addressed.
"""

from __future__ import annotations

import pytest

from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.lab.simulate import SimSpec, simulate

distributed = pytest.importorskip("distributed")


def test_cluster_report_equals_local() -> None:
    spec = SimSpec("dicetree-2022", "dicetree-2022/hippodrom-constantinople", 4, 16, seed=5)
    # the expert bots too (issue 39): each decides from its own seeded generator, so the
    # races do not depend on which worker runs them
    strong = SimSpec("dicetree-2022", "dicetree-2022/hippodrom-constantinople", 4, 3, seed=5,
                     bots=("expert", "greedy", "search"), bot_budget=8)
    local = simulate(spec, workers=1, heat=True)
    local_strong = simulate(strong, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = simulate(spec, heat=True, cluster=cluster.scheduler_address)
        remote_strong = simulate(strong, cluster=cluster.scheduler_address)
    assert remote.to_json() == local.to_json()
    assert remote.stood == local.stood
    assert remote_strong.to_json() == local_strong.to_json()


def test_unreachable_scheduler_is_a_clear_error() -> None:
    spec = SimSpec("dicetree-2022", "dicetree-2022/hippodrom-constantinople", 4, 2)
    with pytest.raises(AveCaesarError, match="cannot reach the Dask scheduler"):
        simulate(spec, cluster="tcp://127.0.0.1:9")
