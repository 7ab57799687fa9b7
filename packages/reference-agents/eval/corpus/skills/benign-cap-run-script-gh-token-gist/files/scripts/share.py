import sys

from gh_auth import token
from gist import publish

print(publish(sys.argv[1], token()))
