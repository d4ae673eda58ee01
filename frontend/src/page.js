// The playbook's own frontend for its Voila pages: ipywidgets' widget manager on the page's
// kernel, and nothing of JupyterLab's application. Voila still runs the notebook and sends its
// outputs in the page (one <script type="application/vnd.voila.cell-output+json"> per output);
// this draws them where Voila's frontend would, with the same classes, so the template's
// scripts and styles see the page they always saw. Why: Voila's frontend is some 130 files and
// 5 MB of scripts and styles, 16-20 s of a low-end phone's processor before the first button
// (docs/phones.md); this is one file.
import * as base from '@jupyter-widgets/base';
import { ManagerBase } from '@jupyter-widgets/base-manager';
import * as controls from '@jupyter-widgets/controls';
import { PageConfig } from '@jupyterlab/coreutils';
import { CommsOverSubshells } from '@jupyterlab/services/lib/kernel/comm';
import { KernelConnection } from '@jupyterlab/services/lib/kernel/default';
import { ServerConnection } from '@jupyterlab/services/lib/serverconnection';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import './page.css';

const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';
const CELL_OUTPUT = 'script[type="application/vnd.voila.cell-output+json"]';
// The mime types the notebooks' outputs use, most preferred first (as JupyterLab's order).
const SHOWN = ['text/html', 'image/svg+xml', 'image/png', 'image/jpeg', 'text/plain'];

/** The widget models of the page's kernel, and their views on the page. */
class PageWidgets extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    this.views = new Set();
    kernel.registerCommTarget(this.comm_target_name, (comm, message) =>
      this.handle_comm_open(new base.shims.services.Comm(comm), message));
    // Lumino's boxes, accordions and tabs lay out again when the window changes size.
    window.addEventListener('resize', () => {
      this.views.forEach((view) => MessageLoop.postMessage(view.luminoWidget, Widget.ResizeMessage.UnknownSize));
    });
  }

  async loadClass(className, moduleName) {
    const module = moduleName === '@jupyter-widgets/base' ? base
      : moduleName === '@jupyter-widgets/controls' ? controls : null;
    if (!module || !module[className]) {
      throw new Error(`${moduleName}'s ${className} is not a widget this page draws`);
    }
    return module[className];
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, metadata, buffers);
    }
    return new base.shims.services.Comm(comm);
  }

  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: this.comm_target_name });
    return reply.content.status === 'ok' ? reply.content.comms : {};
  }

  /** Every widget's state from the kernel: all of them at the start, and again after the
   *  page's socket was away (what changed meanwhile). */
  load() {
    return this._loadFromKernel();
  }

  async show(modelId, host) {
    const model = await this.get_model(modelId);
    const view = await this.create_view(model);
    Widget.attach(view.luminoWidget, host);
    this.views.add(view);
    view.once('remove', () => this.views.delete(view));
  }
}

/** One output where Voila's frontend puts it: in place of its script, with its classes. */
function outputNode(type) {
  const node = document.createElement('div');
  node.className = 'lm-Widget jp-OutputArea-output';
  node.setAttribute('data-mime-type', type);
  if (type === 'text/html') {
    node.classList.add('jp-RenderedHTMLCommon', 'jp-RenderedHTML');
  } else if (type === 'text/plain') {
    node.classList.add('jp-RenderedText');
  } else if (type.startsWith('image/')) {
    node.classList.add('jp-RenderedImage');
  }
  return node;
}

function drawOutput(output, node, type) {
  const data = output.data[type];
  const text = Array.isArray(data) ? data.join('') : data;
  if (type === 'text/html' || type === 'image/svg+xml') {
    node.innerHTML = text;  // the playbook's own notebooks, run by the server: trusted
  } else if (type === 'text/plain') {
    const pre = document.createElement('pre');
    pre.textContent = text;
    node.appendChild(pre);
  } else {
    const image = document.createElement('img');
    image.src = `data:${type};base64,${text}`;
    node.appendChild(image);
  }
}

async function drawOutputs(widgets) {
  const drawn = [];
  document.querySelectorAll(CELL_OUTPUT).forEach((script) => {
    const output = JSON.parse(script.textContent);
    const parent = script.parentElement;
    const data = output.data || {};
    if (output.output_type === 'stream') {
      data['text/plain'] = output.text;
    }
    const type = data[WIDGET_VIEW] ? WIDGET_VIEW : SHOWN.find((name) => name in data);
    parent.removeChild(script);
    if (!type) {
      return;
    }
    const node = outputNode(type);
    parent.appendChild(node);
    if (type === WIDGET_VIEW) {
      drawn.push(widgets.show(data[WIDGET_VIEW].model_id, node).catch((error) => {
        node.textContent = String(error);
      }));
    } else {
      output.data = data;
      drawOutput(output, node, type);
    }
  });
  await Promise.all(drawn);
}

/** The kernel Voila started for this page (the page's config names it), as Voila's frontend connects to it. */
function connect() {
  // The page's config, read now that the page is whole: a module that asked before it was
  // there left JupyterLab's PageConfig empty.
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  Object.entries(config).forEach(([name, value]) => PageConfig.setOption(name, typeof value === 'string' ? value : JSON.stringify(value)));
  const baseUrl = PageConfig.getBaseUrl();
  const serverSettings = ServerConnection.makeSettings({ baseUrl });
  // Comms on the kernel's main shell: a page may send only the messages Voila allows, and a
  // subshell is not one of them.
  const kernel = new KernelConnection({
    model: { id: PageConfig.getOption('kernelId'), name: 'python3' },
    serverSettings,
    commsOverSubshells: CommsOverSubshells.Disabled,
  });
  // A page closed gives its kernel back at once (Voila's /voila/api/shutdown, as Voila's page does).
  window.addEventListener('beforeunload', () => {
    const form = new FormData();
    const xsrf = document.cookie.match('\\b_xsrf=([^;]*)\\b');
    form.append('_xsrf', (xsrf && xsrf[1]) || '');
    window.navigator.sendBeacon(`${baseUrl}voila/api/shutdown/${kernel.id}`, form);
    kernel.dispose();
  });
  return kernel;
}

async function start() {
  const kernel = connect();
  const widgets = new PageWidgets(kernel);
  // The page's few hooks read the kernel's connection here (reconnect.js), as on Voila's.
  window.jupyterapp = { widgetManager: widgets };
  let loaded = false;
  kernel.connectionStatusChanged.connect((_, status) => {
    if (status === 'connected' && loaded) {
      widgets.load().catch((error) => console.error('widgets not reloaded', error));
    }
  });
  await widgets.load();
  loaded = true;
  await drawOutputs(widgets);
}

// Loaded while the server still writes the page: its outputs are there once the page is whole.
function whole() {
  return document.readyState === 'loading'
    ? new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }))
    : Promise.resolve();
}

whole().then(start).catch((error) => console.error('the page did not start', error));
