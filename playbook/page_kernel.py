"""The kernel a served page runs on: ipykernel without its debugger.

ipykernel loads debugpy at start whenever it is installed, for JupyterLab's debugger panel. No
served page can open that panel, and it cost every page's kernel 8 MB and 0.05 CPU-seconds (a
class of 30: 240 MB). The server's own `python3` kernel spec (`templates/kernels/python3/`, first on
the server's JUPYTER_PATH) starts this module where the Python kernel would start
`ipykernel_launcher`; it is that launcher, less the debugger.
"""

import sys

#: this module's name, as kernel specs and process lists know it.
PAGE_KERNEL = "playbook.page_kernel"

if __name__ == "__main__":
    if sys.path[0] == "":  # as ipykernel_launcher: the working folder is not a place to import from
        del sys.path[0]
    sys.modules["debugpy"] = None  # type: ignore[assignment]  # ipykernel then runs as if it were not installed
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()
