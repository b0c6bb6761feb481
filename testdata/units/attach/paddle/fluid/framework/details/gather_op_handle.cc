// A legacy OpHandle source no other file includes.
namespace paddle {
namespace framework {
namespace details {
class GatherOpHandle {};
}  // namespace details
}  // namespace framework
}  // namespace paddle
