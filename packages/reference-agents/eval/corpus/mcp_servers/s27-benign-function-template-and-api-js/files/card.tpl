${w.temperature} C, wind ${w.windspeed} km/h
