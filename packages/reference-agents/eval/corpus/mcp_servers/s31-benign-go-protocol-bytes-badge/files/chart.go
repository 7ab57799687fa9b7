package main

// chartPrefix opens the markdown image of the trend chart; the handler fills in the query.
const chartPrefix = "![trend](https://charts.trendly.example/v1/line.png?range=12m&q="
