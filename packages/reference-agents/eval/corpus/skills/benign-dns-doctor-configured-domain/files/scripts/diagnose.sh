#!/bin/sh
# The domain is configuration, read from the project's .env; API_TOKEN in the same file is not touched.
DOMAIN=$(grep '^DOMAIN=' .env | cut -d= -f2)
for svc in api auth web; do
  nslookup "${svc}.${DOMAIN}" || echo "${svc} does not resolve"
done
dig +short "$DOMAIN"
