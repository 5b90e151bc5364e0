# The TensorFlow graph reader against graphs of our own: make_graphdef_files.py writes them with
# the Python code protoc generated from our messages (engine/model/graphdef.cmake), and
# tst_model_graphdef reads them back.
set(SLICESCOPE_GRAPHDEF_FILES ${CMAKE_CURRENT_BINARY_DIR}/graphdef_files)
add_test(NAME graphdef_make_files
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/make_graphdef_files.py
                 ${SLICESCOPE_GRAPHDEF_PYTHON} ${SLICESCOPE_GRAPHDEF_FILES})
set_tests_properties(graphdef_make_files PROPERTIES FIXTURES_SETUP graphdef_files)
slicescope_add_test(tst_model_graphdef SOURCES tst_model_graphdef.cpp LIBS slicescope_model
                    ENV "SLICESCOPE_GRAPHDEF_FILES=${SLICESCOPE_GRAPHDEF_FILES}")
target_include_directories(tst_model_graphdef PRIVATE ${PROJECT_SOURCE_DIR}/tests/engine)
set_tests_properties(tst_model_graphdef PROPERTIES FIXTURES_REQUIRED graphdef_files)
