# paddle-mini: DataFeedDesc (trimmed).
from google.protobuf import text_format

from paddle.base.proto import data_feed_pb2

__all__ = []


class DataFeedDesc:
    r"""
    :api_attr: Static Graph

    Describes the slots of a training file. Only AsyncExecutor reads it:
    AsyncExecutor parses each file of its file list with this description.

    The description is read from a protobuf text file, see
    :code:`paddle/fluid/framework/data_feed.proto` for the message.
    """

    def __init__(self, proto_file):
        self.proto_desc = data_feed_pb2.DataFeedDesc()
        self.proto_desc.pipe_command = "cat"
        with open(proto_file, 'r') as f:
            text_format.Parse(f.read(), self.proto_desc)
        self.__name_to_index = {
            slot.name: i
            for i, slot in enumerate(self.proto_desc.multi_slot_desc.slots)
        }

    def set_batch_size(self, batch_size):
        self.proto_desc.batch_size = batch_size

    def set_use_slots(self, use_slots_name):
        for name in use_slots_name:
            slot = self.proto_desc.multi_slot_desc.slots[
                self.__name_to_index[name]
            ]
            slot.is_used = True

    def desc(self):
        return text_format.MessageToString(self.proto_desc)
