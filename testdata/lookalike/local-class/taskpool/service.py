"""The job service's web side: hands the pool its owner built to the web layer."""
from .web import make_app as build_app


class ServiceWeb:
    def app(self):
        return build_app(title="jobs", parallel_executor=self.parallel_executor)
