# Compiles one GLSL file to a C header defining
#   static const uint32_t <VAR>[] = { ... };
# (static, so several files can include the same shader; <stdint.h> first).
# Usage: cmake -DGLSLANG=... -DSRC=... -DOUT=... -DVAR=... -P spirv_header.cmake
# Mesh and task shaders (GL_EXT_mesh_shader), ray queries (accel_*,
# GL_EXT_ray_query) and the refdevice's device-address test (spv_address_*:
# buffer references, subgroup operations) need SPIR-V 1.4 or later.
set(target_env)
if(SRC MATCHES "\\.(mesh|task)$" OR SRC MATCHES "/(accel|spv_address)_[^/]*$")
  set(target_env --target-env vulkan1.2)
endif()
execute_process(COMMAND ${GLSLANG} -V ${target_env} --quiet --vn ${VAR} -o ${OUT}.tmp ${SRC}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "glslangValidator failed on ${SRC}:\n${out}")
endif()
file(READ ${OUT}.tmp text)
string(REPLACE "const uint32_t ${VAR}[]" "static const uint32_t ${VAR}[]" text "${text}")
file(WRITE ${OUT} "#include <stdint.h>\n${text}")
file(REMOVE ${OUT}.tmp)
