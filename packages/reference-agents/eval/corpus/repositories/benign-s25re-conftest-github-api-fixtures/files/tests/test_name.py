from ghkit import repo_name


def test_repo_name():
    assert repo_name("https://github.com/o/r/") == "r"
