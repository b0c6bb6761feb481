# paddle-mini: converts a profiler proto into a chrome://tracing timeline.
import argparse
import json

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument('--profile_path', type=str, default='')
parser.add_argument('--timeline_path', type=str, default='')
args = parser.parse_args()


class _ChromeTraceFormatter:
    def __init__(self):
        self._events = []
        self._metadata = []

    def _create_event(self, ph, category, name, pid, tid, timestamp):
        # Drop the executor prefix so events group by operator name.
        short_name = name.replace("ParallelExecutor::Run/", "")
        return dict(ph=ph, cat=category, name=short_name, pid=pid, tid=tid, ts=timestamp)

    def emit_region(self, timestamp, duration, pid, tid, category, name, args):
        event = self._create_event('X', category, name, pid, tid, timestamp)
        event['dur'] = duration
        event['args'] = args
        self._events.append(event)

    def format_to_string(self, pretty=False):
        trace = {'traceEvents': self._metadata + self._events}
        return json.dumps(trace, indent=4 if pretty else None)
