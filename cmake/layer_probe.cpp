// Link probe of one layer (cmake/Layers.cmake): an executable linking that layer's library and
// its dependencies alone, as whole archives. It fails to link when the layer calls a layer above.
int main() {
  return 0;
}
