/**
 * A user's module: the library's modules by their stable automatic-module names, and Guava's, which they use (a
 * module-path build without it compiles and then fails at run time: NoClassDefFoundError for Guava's Preconditions).
 */
module org.example.modular {
  requires io.github.ariesmodel.core;
  requires io.github.ariesmodel.system;
  requires com.google.common;

  exports org.example.modular;
}
