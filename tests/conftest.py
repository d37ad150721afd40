"""Which tests ``make test-fast`` leaves out: the ``slow`` mark.

``make test`` runs every test.  ``make test-fast`` (``-m "not slow"``) is the quick loop
while working on rules or analysis: it keeps every rules, invariant, reference, stream,
statistics and behaviour-fixture test, and leaves out the integration modules below (whole
commands and their reports, processes started and killed, a browser, a wheel, the numba
cache compiled afresh), which carry most of the suite's time, and the tests marked slow
where they stand (strength regressions, fault injection).  A module is listed here, not
marked in its own file, so that the split is read in one place."""
import pytest

#: modules that test whole commands, processes, reports or packaging: slow as a whole
INTEGRATION = {
    "test_api.py", "test_batam_impact.py", "test_cli.py", "test_cli_hostile.py",
    "test_converge.py", "test_dask.py", "test_data_hostile.py", "test_experiments.py",
    "test_faults.py", "test_jit_cache.py", "test_report_browser.py", "test_robust_e2e.py",
    "test_run_speed.py",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in INTEGRATION:
            item.add_marker(pytest.mark.slow)
    # the slow tests first (a stable sort: each group keeps its order): under xdist the
    # suite's last minutes are then short tests that the two workers share, not one worker
    # finishing a long integration test while the other waits
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
