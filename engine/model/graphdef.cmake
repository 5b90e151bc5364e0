# The TensorFlow GraphDef reader's protobuf code, generated at build time by protoc
# (protobuf-compiler) from our own message definitions; it links libprotobuf (libprotobuf-dev).
# Included by this folder's CMakeLists.txt after slicescope_model exists.
find_package(Protobuf REQUIRED)
set(SLICESCOPE_GRAPHDEF_PROTO ${CMAKE_CURRENT_SOURCE_DIR}/graphdef.proto)
set(SLICESCOPE_GRAPHDEF_GENERATED ${CMAKE_CURRENT_BINARY_DIR}/generated)
add_custom_command(
  OUTPUT ${SLICESCOPE_GRAPHDEF_GENERATED}/graphdef.pb.cc ${SLICESCOPE_GRAPHDEF_GENERATED}/graphdef.pb.h
         ${SLICESCOPE_GRAPHDEF_GENERATED}/python/graphdef_pb2.py
  COMMAND ${CMAKE_COMMAND} -E make_directory ${SLICESCOPE_GRAPHDEF_GENERATED}/python
  COMMAND protobuf::protoc --proto_path=${CMAKE_CURRENT_SOURCE_DIR}
          --cpp_out=${SLICESCOPE_GRAPHDEF_GENERATED}
          --python_out=${SLICESCOPE_GRAPHDEF_GENERATED}/python ${SLICESCOPE_GRAPHDEF_PROTO}
  DEPENDS ${SLICESCOPE_GRAPHDEF_PROTO}
  COMMENT "protoc: TensorFlow GraphDef messages (C++ and Python)")
target_sources(slicescope_model PRIVATE ${SLICESCOPE_GRAPHDEF_GENERATED}/graphdef.pb.cc
               ${SLICESCOPE_GRAPHDEF_GENERATED}/python/graphdef_pb2.py)
target_include_directories(slicescope_model PRIVATE ${SLICESCOPE_GRAPHDEF_GENERATED})
target_link_libraries(slicescope_model PRIVATE protobuf::libprotobuf)
# Generated code is not ours to warn about.
set_source_files_properties(${SLICESCOPE_GRAPHDEF_GENERATED}/graphdef.pb.cc PROPERTIES
                            COMPILE_OPTIONS "-w")
# Where tests find the generated Python module.
set(SLICESCOPE_GRAPHDEF_PYTHON ${SLICESCOPE_GRAPHDEF_GENERATED}/python CACHE INTERNAL "")
