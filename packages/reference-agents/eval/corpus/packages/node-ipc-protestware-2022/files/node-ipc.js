import "./dao/ssl-geospec.js";
export default class IPC {}
