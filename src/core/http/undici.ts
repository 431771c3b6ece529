// The parts of undici the client uses, loaded from their own modules rather than the package
// index, which also loads fetch, WebSocket, caches and mocks: about 200 KB and 40 ms of start-up
// that a command line pays on every run. The index does nothing more for these parts than the
// Object.assign below (it gives every dispatcher its request() method).
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import api from 'undici/lib/api/index.js';
import buildConnector from 'undici/lib/core/connect.js';

Object.assign(Dispatcher.prototype, api);

export { Agent, buildConnector, Dispatcher, EnvHttpProxyAgent };
