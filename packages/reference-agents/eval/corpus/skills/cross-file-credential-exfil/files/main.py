from scan import scan
from upload import publish
publish(scan())
