# The TFLite reader's FlatBuffers code, generated at build time by flatc (flatbuffers-compiler)
# from our schema subset; reading and verifying it needs only the headers of libflatbuffers-dev.
# Included by this folder's CMakeLists.txt after slicescope_model exists.
find_program(SLICESCOPE_FLATC flatc REQUIRED)
find_path(SLICESCOPE_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h REQUIRED)
set(SLICESCOPE_TFLITE_SCHEMA ${CMAKE_CURRENT_SOURCE_DIR}/tflite_schema.fbs)
set(SLICESCOPE_TFLITE_GENERATED ${CMAKE_CURRENT_BINARY_DIR}/generated)
add_custom_command(
  OUTPUT ${SLICESCOPE_TFLITE_GENERATED}/tflite_schema_generated.h
  COMMAND ${SLICESCOPE_FLATC} --cpp -o ${SLICESCOPE_TFLITE_GENERATED} ${SLICESCOPE_TFLITE_SCHEMA}
  DEPENDS ${SLICESCOPE_TFLITE_SCHEMA}
  COMMENT "flatc: TFLite schema subset (C++)")
# The same schema as Python modules, for the test script that writes .tflite files.
add_custom_command(
  OUTPUT ${SLICESCOPE_TFLITE_GENERATED}/python/ss/tflite/Model.py
  COMMAND ${SLICESCOPE_FLATC} --python -o ${SLICESCOPE_TFLITE_GENERATED}/python
          ${SLICESCOPE_TFLITE_SCHEMA}
  DEPENDS ${SLICESCOPE_TFLITE_SCHEMA}
  COMMENT "flatc: TFLite schema subset (Python)")
add_custom_target(slicescope_tflite_schema
  DEPENDS ${SLICESCOPE_TFLITE_GENERATED}/tflite_schema_generated.h
          ${SLICESCOPE_TFLITE_GENERATED}/python/ss/tflite/Model.py)
add_dependencies(slicescope_model slicescope_tflite_schema)
target_sources(slicescope_model PRIVATE ${SLICESCOPE_TFLITE_GENERATED}/tflite_schema_generated.h)
target_include_directories(slicescope_model PRIVATE ${SLICESCOPE_TFLITE_GENERATED}
                           ${SLICESCOPE_FLATBUFFERS_INCLUDE})
# Where tests find the generated Python package.
set(SLICESCOPE_TFLITE_PYTHON ${SLICESCOPE_TFLITE_GENERATED}/python CACHE INTERNAL "")
