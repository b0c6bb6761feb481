"""A tiny web layer over the job pool."""


def make_app(title, parallel_executor=None):
    app = {"title": title}
    app["pool"] = parallel_executor
    if parallel_executor is not None:
        app["run"] = parallel_executor.run
    return app
