import pytest

from tests.support import metrics  # noqa: F401  (registers timing hooks)


@pytest.fixture
def client():
    from pkg.app import create_app

    return create_app().test_client()
